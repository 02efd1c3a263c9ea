// The crash seam (test/support/engine/crash-seam.ts) copies a job's temp tree only once every
// piece of the job waits on a paused call. A full CI run once restored a copy whose HEAD named
// a commit the copy did not hold (crash-resume, "unable to read tree"/"Could not parse object
// 'HEAD'"): the seam had taken as the test runner's own an fs request that was in flight when
// the recording started, so a job strand waiting on one fs request looked quiet, and went on
// to commit while the copy ran. These tests hold a strand on an fs request (a FIFO read, which
// returns only once a writer opens the FIFO) that a detached process releases later; and a
// strand the seam cannot see at all (an unref'd timer) that writes while a copy is taken.

import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { recordCrashPoints } from "../../../support/engine/crash-seam.js";
import type { Forge } from "../../../../src/ports/forge.js";
import { git, makeTempRepo, removeDir, tempDir } from "../../../support/git/temp-repo.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** Opens `fifo` for writing after `ms`, from a process the test's own process does not wait on. */
function releaseLater(fifo: string, ms: number): void {
  const writer = spawn("sh", ["-c", `sleep ${ms / 1000}; printf x > '${fifo}'`], {
    stdio: "ignore",
    detached: true,
  });
  writer.unref();
}

describe("crash seam: a copy is taken only when no strand of the job is between calls", () => {
  it("a strand waiting on an fs request is waited for, even with one in flight as the recording starts", async () => {
    const snapshots = tempDir("cfa-seam-");
    dirs.push(snapshots);
    const root = join(snapshots, "job");
    const { repo } = makeTempRepo({ root });
    const fifo = join(snapshots, "fifo");
    execFileSync("mkfifo", [fifo]);
    releaseLater(fifo, 300);
    const forge = { pushBranch: async () => undefined } as unknown as Forge;

    // The test runner's own fs request, in flight at the very moment the recording starts.
    const noise = readFile(join(repo, "README.md"));
    const points = await recordCrashPoints({
      root,
      snapshots,
      run: async (seam) => {
        const strand = (async () => {
          await readFile(fifo);
          git(repo, "commit", "--quiet", "--allow-empty", "-m", "the strand's commit");
        })();
        await seam.forge(forge).pushBranch("main", { sha: "", expectedOld: null });
        await strand;
      },
    });
    await noise;

    const before = points.find((p) => p.label === "before 1 forge.pushBranch")!;
    // The strand was not at a call: the job was quiet only once its commit was made.
    expect(git(join(before.dir, "repo"), "log", "-1", "--format=%s")).toBe("the strand's commit");
  });

  it("a copy the job wrote to while it was taken is taken again", async () => {
    const snapshots = tempDir("cfa-seam-");
    dirs.push(snapshots);
    const root = join(snapshots, "job");
    const { repo } = makeTempRepo({ root });
    // Enough files that cp runs for a while.
    for (let i = 0; i < 400; i++) writeFileSync(join(repo, `f${i}.txt`), `${i}\n`);
    const forge = { pushBranch: async () => undefined } as unknown as Forge;

    const points = await recordCrashPoints({
      root,
      snapshots,
      run: async (seam) => {
        // Waits on nothing the seam counts, and writes as soon as the first copy has begun.
        const poll = setInterval(() => {
          if (!existsSync(join(snapshots, "0"))) return;
          clearInterval(poll);
          writeFileSync(join(repo, "late.txt"), "written while the copy ran\n");
        }, 1);
        poll.unref();
        await seam.forge(forge).pushBranch("main", { sha: "", expectedOld: null });
      },
    });

    const before = points.find((p) => p.label === "before 1 forge.pushBranch")!;
    expect(existsSync(join(before.dir, "repo", "late.txt"))).toBe(true);
  });
});
