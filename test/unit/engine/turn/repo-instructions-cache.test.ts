// The repository's instructions are read from the default branch's commit: a later wake of the
// same process whose branch still points there reads them from no git process, and one whose
// branch moved reads the new commit. Real git in a temp repo; git processes counted on the
// engine's git channel (git-spawner.ts).

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import type { Session } from "../../../../src/engine/job/session.js";
import { repoInstructions } from "../../../../src/engine/turn/repo-instructions.js";
import { noopLogger } from "../../../../src/ports/logger.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

/** A wake's session as repoInstructions reads it: a new one per wake. */
const wakeOf = (r: TempRepo) =>
  ({
    config: { instructions: ["AGENTS.md"] },
    deps: { repoDir: r.repo, forge: { defaultBranch: async () => "main" }, logger: noopLogger },
  }) as unknown as Session;

async function readCounting(r: TempRepo): Promise<{ prompt: string; gits: number }> {
  let gits = 0;
  const count = () => (gits += 1);
  subscribe("cfa-bot:git", count);
  try {
    const read = await repoInstructions(wakeOf(r));
    return { prompt: read.prompt, gits };
  } finally {
    unsubscribe("cfa-bot:git", count);
  }
}

describe("repoInstructions across wakes", () => {
  it("reads a commit once, and the new commit once the default branch moves", async () => {
    repo = makeTempRepo();
    repo.write("AGENTS.md", "Run the tests with `make test`.\n");
    repo.commitAll("instructions");
    const first = await readCounting(repo);
    expect(first.prompt).toContain("make test");
    expect(first.gits).toBeGreaterThan(0);

    const again = await readCounting(repo);
    expect(again).toEqual({ prompt: first.prompt, gits: 0 });

    repo.write("AGENTS.md", "Run the tests with `npm test`.\n");
    repo.commitAll("new instructions");
    const moved = await readCounting(repo);
    expect(moved.prompt).toContain("npm test");
    expect(moved.prompt).not.toContain("make test");
    expect(moved.gits).toBeGreaterThan(0);
  });
});
