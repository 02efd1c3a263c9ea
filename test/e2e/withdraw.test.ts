// Withdraw (docs/protocol.md#withdrawal): `/withdraw` stops the job at once; Terminate on the job
// thread cascades to every task, whose branches are deleted unmerged.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approveGates, openJob, say as comment } from "../support/engine/person.js";
import { commentsOfKind, foldedBus, state, taskBranches } from "../support/engine/inspect.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { INTENT_STEPS, PLAN_STEPS } from "../support/engine/recordings.js";

const TASKS = ["alpha", "beta", "gamma"];

/** A worker that writes its file, then asks the person something and waits. */
function askingWorker(id: string) {
  return [
    tools(call("write_file", { path: `${id}.txt`, content: `${id}\n` })),
    tools(call("ask_question", { kind: "question", text: `Should ${id}.txt end with a newline?` })),
  ];
}

describe("withdraw", () => {
  const newJob = useLocalJobs();

  it("a /withdraw comment mid-EXECUTE ends every task instance, deletes their branches and worktrees unmerged, records the reason and closes the PR", async () => {
    const job = await newJob({
      recording: recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": PLAN_STEPS(),
        "project-lead@state:execute:1": [
          tools(
            ...TASKS.map((id) =>
              call("dispatch", { id, brief: `Create ${id}.txt containing ${id}`, files: [] }),
            ),
          ),
          say("Three tasks dispatched."),
        ],
        ...Object.fromEntries(TASKS.map((id) => [`worker@dispatch:${id}`, askingWorker(id)])),
      }),
    });
    await openJob(job);
    const running = await approveGates(job, 2, wake);
    expect(running.state).toBe("EXECUTE");
    // Three live tasks, each on its own branch and worktree, each waiting on a question.
    expect(running.waitingOn).toContain("to answer `q3`, `q4`, `q5`");
    expect(taskBranches(job)).toEqual(TASKS.map((id) => `cfa/1-${id}`));
    expect(git(job.repoDir, "worktree", "list")).toContain("task-alpha");
    const before = git(job.repoDir, "rev-parse", "cfa/1");

    await comment(job, "/withdraw changed my mind\nthe greeting is not needed");
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("WITHDRAWN");

    const record = state(job);
    expect(record.history.at(-1)).toMatchObject({
      from: "EXECUTE",
      action: "WITHDRAW",
      to: "WITHDRAWN",
      by: "@ana",
      reason: "changed my mind\nthe greeting is not needed",
    });
    expect(Object.values(record.engine.tasks as Record<string, { status: string }>)).toEqual([
      expect.objectContaining({ status: "dropped" }),
      expect.objectContaining({ status: "dropped" }),
      expect.objectContaining({ status: "dropped" }),
    ]);

    // No task branch or worktree is left, and nothing of theirs reached the job branch.
    expect(taskBranches(job)).toEqual([]);
    expect(git(job.repoDir, "worktree", "list")).not.toMatch(/task-/);
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    for (const id of TASKS) expect(files).not.toContain(`${id}.txt`);
    expect(git(job.repoDir, "log", "--merges", "--format=%s", `${before}..cfa/1`)).toBe("");

    // Every task instance ended: the folded bus holds none of them, and no question is open.
    const soup = foldedBus(job).folded.soup;
    expect(soup.instances().filter((a) => a.agent === "worker")).toEqual([]);
    expect(soup.pendingEscalations()).toEqual([]);
    expect(soup.isQuiescent()).toBe(true);

    const pr = await job.forge.findPullRequest("cfa/1");
    expect(pr?.state).toBe("closed");
    const notices = await commentsOfKind(job, "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain("**Withdrawn.**");
    const [status] = await commentsOfKind(job, "status");
    expect(status!.body).toContain("**WITHDRAWN**");

    // A later wake finds a terminal job and changes nothing.
    const head = git(job.repoDir, "rev-parse", "cfa/1");
    expect((await wake(1, job.deps)).state).toBe("WITHDRAWN");
    expect(git(job.repoDir, "rev-parse", "cfa/1")).toBe(head);
  });
});
