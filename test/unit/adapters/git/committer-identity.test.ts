// The committer identity is asked of git once per repository config, and again once that config
// changed. Real git in a temp repo; git processes counted on the engine's git channel.

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  FALLBACK_EMAIL,
  FALLBACK_NAME,
  identityConfig,
} from "../../../../src/adapters/git/committer-identity.js";
import { gitClient } from "../../../../src/git/git-client.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

async function counting(r: TempRepo): Promise<{ config: string[]; gits: number }> {
  let gits = 0;
  const count = () => (gits += 1);
  subscribe("cfa-bot:git", count);
  try {
    const config = await identityConfig(gitClient(r.repo), path.join(r.repo, ".git"));
    return { config, gits };
  } finally {
    unsubscribe("cfa-bot:git", count);
  }
}

describe("identityConfig", () => {
  it("asks git once per config, and again when the config changed", async () => {
    repo = makeTempRepo({ identity: null });
    // The first asks (the client's driver listing besides: driver-overrides.ts).
    const first = await counting(repo);
    expect(first.config).toEqual([`user.name=${FALLBACK_NAME}`, `user.email=${FALLBACK_EMAIL}`]);
    expect(first.gits).toBeGreaterThan(0);
    expect(await counting(repo)).toEqual({ config: first.config, gits: 0 });
    repo.git("config", "user.name", "Ana");
    repo.git("config", "user.email", "ana@example.com");
    const changed = await counting(repo);
    expect(changed.config).toEqual([]);
    expect(changed.gits).toBeGreaterThan(0);
  });
});
