// `cfa clean` removes the job areas nothing needs (src/cli/clean-areas.ts): those of ended
// jobs, of jobs whose branch is gone, and every area of a repository that no longer exists;
// it keeps a live job's and one whose repository it cannot tell, and says what it freed.
// --dry-run says the same and removes nothing.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { claimWorkRoot, defaultWorkRoot } from "../../../src/cli/work-root.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { makeTempRepo, removeDir, tempDir, type TempRepo } from "../../support/git/temp-repo.js";

let root: string;
let kept: TempRepo;
let gone: TempRepo;
let env: Record<string, string | undefined>;
const area = (repo: string) => defaultWorkRoot(repo, env);

/** A branch cfa/<n> whose state record says `state`. */
function jobBranch(repo: TempRepo, n: number, state: string): void {
  repo.git("checkout", "--quiet", "-b", `cfa/${n}`);
  repo.write(`.cfa/jobs/${n}/state.json`, JSON.stringify({ state }));
  repo.commitAll(`job ${n}`);
  repo.git("checkout", "--quiet", "main");
}

beforeAll(async () => {
  root = tempDir("cfa-clean-");
  env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: join(root, "cache") };
  kept = makeTempRepo({ root: join(root, "kept") });
  gone = makeTempRepo({ root: join(root, "gone") });
  for (const repo of [kept, gone]) await claimWorkRoot(area(repo.repo), repo.repo);
  jobBranch(kept, 1, "DONE");
  jobBranch(kept, 2, "PLAN");
  for (const n of [1, 2, 3]) {
    mkdirSync(join(area(kept.repo), String(n)), { recursive: true });
    writeFileSync(join(area(kept.repo), String(n), "responses.jsonl"), "x".repeat(200_000));
  }
  mkdirSync(join(area(gone.repo), "1"), { recursive: true });
  writeFileSync(join(area(gone.repo), "1", "responses.jsonl"), "y".repeat(300_000));
  removeDir(gone.root);
  mkdirSync(join(root, "cache", "cfa-bot", "work", "0123456789ab", "1"), { recursive: true });
});
afterAll(() => removeDir(root));

describe("cfa clean", () => {
  it("--dry-run says what it would remove and what that frees, and removes nothing", async () => {
    const io = captureIo({ cwd: root, env });
    expect(await main(["clean", "--dry-run"], io)).toBe(0);
    const lines = io.out().trim().split("\n");
    // Areas are listed in their folders' order (hashes of the paths): compare as a set.
    expect(lines.slice(0, -1).sort()).toEqual(
      [
        `would remove ${area(gone.repo)} (0.3 MB): its repository ${gone.repo} no longer exists`,
        `would remove ${join(area(kept.repo), "1")} (0.2 MB): job #1 of ${kept.repo} is DONE`,
        `would remove ${join(area(kept.repo), "3")} (0.2 MB): job #3 of ${kept.repo} has no branch cfa/3`,
      ].sort(),
    );
    expect(lines.at(-1)).toBe(
      `Would free 0.7 MB in 3 job areas under ${join(root, "cache", "cfa-bot", "work")}; kept 1 area whose repository cfa cannot tell.`,
    );
    expect(existsSync(area(gone.repo))).toBe(true);
    expect(existsSync(join(area(kept.repo), "1"))).toBe(true);
  });

  it("removes them, keeping the live job's area; a second run finds nothing", async () => {
    const io = captureIo({ cwd: root, env });
    expect(await main(["clean"], io)).toBe(0);
    expect(io.out()).toContain("Freed 0.7 MB in 3 job areas");
    expect(existsSync(area(gone.repo))).toBe(false);
    expect(existsSync(join(area(kept.repo), "1"))).toBe(false);
    expect(existsSync(join(area(kept.repo), "3"))).toBe(false);
    expect(existsSync(join(area(kept.repo), "2"))).toBe(true);
    const again = captureIo({ cwd: root, env });
    expect(await main(["clean"], again)).toBe(0);
    expect(again.out()).toMatch(
      /^Nothing to remove in \S+; kept 1 area whose repository cfa cannot tell\.\n$/,
    );
  });
});
