// A task's own run names the commit its task is done at; the lead's run verifies and merges that
// commit. The run is hostile: its agent's commands ran there. Two plants of a done head that is not
// on the branch the run pushed — a commit of another branch the lead's repository holds, and one
// nobody has — are refused: nothing of them reaches the job branch, said once. Positive control:
// the planted commit is in the lead's repository and carries the file, so a lead that took any
// named head would have merged it.

import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { fileOnBranch } from "../support/engine/inspect.js";
import {
  activeRuns,
  leadUpToDispatch,
  runTaskAsItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";

const PER_TASK = "execute:\n  runners: per-task\n";

describe("a task run's done head off its branch (2 plants)", () => {
  const newJob = useLocalJobs();

  async function toExecute() {
    const job = await newJob({
      recording: tasksInOwnRunsRecording(),
      config: PER_TASK,
    });
    const deps = await leadUpToDispatch(job, activeRuns());
    await wake(1, deps);
    return { job, deps };
  }

  it.each([
    ["a commit of another branch the lead's repository holds", "held"],
    ["a commit nobody has", "absent"],
  ])("%s: refused, said once; evil.txt never reaches cfa/1", async (_name, kind) => {
    const { job, deps } = await toExecute();
    let claim: string;
    if (kind === "held") {
      const dir = `${job.root}/evil`;
      git(job.repoDir, "worktree", "add", "--quiet", "-b", "evil", dir, "cfa/1-world");
      git(dir, "config", "user.name", "x");
      git(dir, "config", "user.email", "x@example.invalid");
      writeFileSync(`${dir}/evil.txt`, "evil\n");
      git(dir, "add", "evil.txt");
      git(dir, "commit", "--quiet", "-m", "evil");
      claim = git(dir, "rev-parse", "HEAD");
      // Positive control: the lead's repository holds it, evil.txt in its tree.
      expect(git(job.repoDir, "ls-tree", "--name-only", claim)).toContain("evil.txt");
    } else {
      claim = "e".repeat(40);
    }
    await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt");
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt", () => claim);
    const summary = await wake(1, deps);
    expect(summary.state).toBe("EXECUTE");
    expect(fileOnBranch(job, "evil.txt")).toBeNull();
    expect(fileOnBranch(job, "hello.txt")).not.toBeNull();
    const refused = job.lines.filter(
      (l) => l.event === "REFUSED" && l.detail.includes("a done turn's head is not on its branch"),
    );
    expect(refused.map((l) => l.detail)).toEqual([
      "task world's run: a done turn's head is not on its branch",
    ]);
  });
});
