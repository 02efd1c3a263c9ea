// `cfa demo` without --dir leaves nothing behind: its temporary repository and the job area
// it had in the cache are removed, and its last line says so and how to keep them.

import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { removeDir, tempDir } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

const root = tempDir("cfa-demo-cleanup-");
afterAll(() => removeDir(root));

describe("cfa demo without --dir", () => {
  it(
    "removes its temporary folder and its job area, and says how to keep them",
    async () => {
      const tmp = join(root, "tmp");
      mkdirSync(tmp);
      const cache = join(root, "cache");
      const io = captureIo({
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp, XDG_CACHE_HOME: cache },
      });
      expect(await main(["demo"], io)).toBe(0);
      expect(io.err()).toBe("");
      expect(io.out()).toContain("[#1]"); // the live log of the job
      expect(io.out()).toMatch(
        /\nReplayed in [0-9.]+ s with no model and no network\. Its repository was a temporary one, removed now: `cfa demo --dir cfa-demo` keeps it, with the job's page and the commands to look around\.\n$/,
      );
      expect(io.out()).not.toContain("merge --no-ff"); // no command into the removed repository
      expect(readdirSync(tmp)).toEqual([]);
      expect(readdirSync(join(cache, "cfa-bot", "work"))).toEqual([]);
    },
    bound(180_000),
  );
});
