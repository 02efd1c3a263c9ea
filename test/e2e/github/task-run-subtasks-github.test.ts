// On GitHub, sub-tasks stay in their parent task's run. As the GitHub App (each run mints its own
// installation token; git over HTTP through git http-backend, the bare repository logging every ref
// update with the token that carried it), hello's worker in its own run dispatches two sub-tasks;
// both are worked, verified and merged into hello's branch in that run, and the run's one record
// ties the worker's later turns to their replies (subtree-mail.ts). The lead's next run folds it
// and takes the worker's 3 turns, verifies and merges hello and world — DONE. The push log shows no
// sub-task branch ever pushed, and every update of a task branch after the lead created it leased
// by that task run's own token. And a sub-task that goes quiet: the worker's later turns open on
// the run's two notices, which the lead renders itself to check; it takes the 3 turns, nothing
// refused, DONE.

import { describe, expect, it } from "vitest";
import { withQuietSubtask, withSubtasks } from "../../support/engine/task-run-jobs.js";
import { git } from "../../support/github/github-job.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { quietNotice } from "../../../src/engine/fanout/subtree-mail.js";
import {
  AS_APP,
  bothTasksRunAsApp,
  expectPushesByWriter,
  leadToDone,
  recordOnBranch,
  type Owners,
} from "../../support/github/task-runs.js";
import { bound } from "../../support/time-bound.js";

/** hello's worker's file on the job branch: the transcript the lead took from hello's run. */
const HELLO_FILE = jobPaths(1).instance({ agent: "worker", thread: "dispatch:hello" });

describe("sub-tasks in a task's own run, on GitHub", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it(
    "as the app: hello's run dispatches 2 sub-tasks → verified and merged into cfa/1-hello in that run → its record ties the worker's 2 later turns to their replies → the lead folds, takes the 3 turns, verifies, merges — DONE; no sub-task branch ever pushed, every task-branch update leased by its run's own token",
    async () => {
      const job = await newJob({ recording: withSubtasks(), ...AS_APP });
      const { github } = job;
      const owners: Owners = new Map();
      await bothTasksRunAsApp(job, owners);

      const record = recordOnBranch(job, "hello");
      expect(record).toMatchObject({
        done: true,
        workerTurns: 3,
        subtasks: ["hello-a", "hello-b"],
      });
      expect(record.mail).toHaveLength(2);
      expect(record.mail).toMatchObject([
        { kind: "reply", from: "hello-a" },
        { kind: "reply", from: "hello-b" },
      ]);
      // Every model call of the subtree: the worker's 8, each sub-task's 3, each verifier's 1.
      expect(record.calls).toBe(8 + 3 + 3 + 1 + 1);
      // The sub-tasks were real branches in the run: merged into hello's there.
      const merges = git(github.bare, "log", "--merges", "--format=%s", record.head!);
      expect(merges).toContain("merge task hello-a");
      expect(merges).toContain("merge task hello-b");

      // The lead folds both and takes hello's transcript whole (nothing refused), then DONE.
      await leadToDone(job, owners, ["a.txt", "b.txt"]);
      expect(job.lines.filter((l) => l.includes("REFUSED"))).toEqual([]);
      expect(git(github.bare, "show", `cfa/1:${HELLO_FILE}`)).toBe(
        git(github.bare, "show", `${record.head}:.cfa/turns/transcript.jsonl`),
      );

      // hello's run: every call's record, then the code, transcript and ended record at once.
      expectPushesByWriter(job, owners, { hello: record.calls + 1, world: 4 });
      expect(job.pushLog().filter((u) => u.ref.startsWith("refs/heads/cfa/1-hello-"))).toEqual([]);
      expect(mocks.recorder().invalid()).toEqual([]);
    },
    bound(180_000),
  );

  it(
    "as the app: hello's sub-task goes quiet → the run tells the worker once, then drops it unmerged, the worker doing its work → the record's 2 later turns open on those 2 notices, which the lead renders itself → folded, its 3 turns taken, DONE; nothing refused, no sub-task branch pushed",
    async () => {
      const job = await newJob({ recording: withQuietSubtask(), ...AS_APP });
      const { github } = job;
      const owners: Owners = new Map();
      await bothTasksRunAsApp(job, owners);

      const record = recordOnBranch(job, "hello");
      expect(record).toMatchObject({
        workerTurns: 3,
        subtasks: ["hello-a"],
        mail: [
          { kind: "notice", notice: "quiet", tasks: ["hello-a"] },
          { kind: "notice", notice: "dropped", tasks: ["hello-a"] },
        ],
      });
      const transcript = git(github.bare, "show", `${record.head}:.cfa/turns/transcript.jsonl`);
      // The notice as the worker read it (its first words: the transcript holds it as JSON).
      expect(transcript).toContain(quietNotice(["hello-a"]).slice(0, 60));

      await leadToDone(job, owners);
      expect(job.lines.filter((l) => l.includes("REFUSED"))).toEqual([]);
      expect(git(github.bare, "show", `cfa/1:${HELLO_FILE}`)).toBe(transcript);
      expect(git(github.bare, "log", "--merges", "--format=%s", "cfa/1")).not.toContain("hello-a");
      expectPushesByWriter(job, owners, { hello: record.calls + 1, world: 4 });
      expect(mocks.recorder().invalid()).toEqual([]);
    },
    bound(180_000),
  );
});
