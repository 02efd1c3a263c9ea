import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { asConversationModel, git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { happyRecording } from "../support/engine/recordings.js";
import { approve, openJob } from "../support/engine/person.js";
import {
  commentsOfKind,
  firstParentSubjects,
  foldedBus,
  state,
} from "../support/engine/inspect.js";

const TURN = /^cfa #1: (INTENT|PLAN|EXECUTE) (\S+@\S+) turn (\d+)(: [A-Z_]+)?$/;

describe("a whole job on the local forge", () => {
  const newJob = useLocalJobs();

  it("runs INTENT → PLAN → EXECUTE → DONE: one commit per turn, a draft PR made ready at DONE, checks on the head, one status comment edited in place", async () => {
    const job = await newJob({ recording: happyRecording() });
    expect(await openJob(job)).toBe(1);

    const statusIds: number[] = [];
    const drafts: boolean[] = [];
    const checks: string[][] = [];
    const observe = async () => {
      // GitHub shows a pull request the checks of its head commit.
      const head = git(job.repoDir, "rev-parse", "cfa/1");
      checks.push(
        (await job.forge.listChecks())
          .filter((c) => c.sha === head)
          .map((c) => `${c.name} ${c.conclusion ?? c.status}`)
          .sort(),
      );
      const status = await commentsOfKind(job, "status");
      expect(status).toHaveLength(1);
      statusIds.push(status[0]!.id);
      const pr = await job.forge.findPullRequest("cfa/1");
      drafts.push(pr!.draft);
      return status[0]!;
    };

    let summary = await wake(1, job.deps);
    expect(summary.state).toBe("INTENT");
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect((await observe()).body).toContain("**INTENT**");

    await approve(job);
    summary = await wake(1, job.deps);
    expect(summary.state).toBe("PLAN");
    expect(summary.waitingOn).toContain("review PLAN.md");
    await observe();

    await approve(job);
    summary = await wake(1, job.deps);
    expect(summary.state).toBe("EXECUTE");
    expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");
    await observe();

    await approve(job);
    summary = await wake(1, job.deps);
    expect(summary.state).toBe("DONE");
    const status = await observe();
    expect(status.body).toContain("**DONE**");

    // The work arrived through merged task branches, which are gone.
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    expect(git(job.repoDir, "branch", "--list", "cfa/1-*")).toBe("");
    expect(asConversationModel(job.model).unplayed()).toEqual({});

    // One commit per turn on the job branch, each named `cfa #N: <state> <agent@thread> turn K[: OUTCOME]`.
    const turns = firstParentSubjects(job).filter((s) => TURN.test(s));
    expect(turns).toEqual([
      "cfa #1: INTENT intent-lead@state:intent:1 turn 1",
      "cfa #1: INTENT intent-lead@state:intent:1 turn 2: APPROVED_INTENT",
      "cfa #1: PLAN project-lead@state:plan:1 turn 1",
      "cfa #1: PLAN project-lead@state:plan:1 turn 2: APPROVED_PLAN",
      "cfa #1: EXECUTE project-lead@state:execute:1 turn 1",
      "cfa #1: EXECUTE worker@dispatch:hello turn 1",
      "cfa #1: EXECUTE worker@dispatch:world turn 1",
      "cfa #1: EXECUTE project-lead@state:execute:1 turn 2",
      "cfa #1: EXECUTE project-lead@state:execute:1 turn 3",
      "cfa #1: EXECUTE project-lead@state:execute:1 turn 4: APPROVED_WORK",
    ]);

    // The pull request stayed a draft until DONE, then left draft; the status comment was
    // one comment, edited in place.
    expect(drafts).toEqual([true, true, true, false]);
    expect(new Set(statusIds).size).toBe(1);
    expect(checks).toEqual([
      ["cfa/intent in_progress"],
      ["cfa/intent success", "cfa/plan in_progress"],
      ["cfa/execute in_progress", "cfa/intent success", "cfa/plan success"],
      ["cfa/execute success", "cfa/intent success", "cfa/plan success"],
    ]);

    // The record: three approvals, no backtrack, and a bus log that folds to rest.
    const record = state(job);
    expect(record.history.map((h) => h.action)).toEqual([
      "APPROVED_INTENT",
      "APPROVED_PLAN",
      "APPROVED_WORK",
    ]);
    expect(record.backtracks).toBe(0);
    expect(foldedBus(job).folded.soup.isQuiescent()).toBe(true);
    // Structured record comments carry distinct seqs.
    const seqs = (await commentsOfKind(job, "transition")).map((c) => c.block.seq);
    expect(new Set(seqs).size).toBe(3);
  });
});
