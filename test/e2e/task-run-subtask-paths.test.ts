// The less travelled paths of sub-tasks in a task's own run (the main ones:
// task-run-subtasks.test.ts). What the lead's run does must hold in a task run too:
// - more sub-tasks than the fan-out cap (docs/protocol.md#configuration): the extra one is queued,
//   the worker told so; it starts when a sibling closes, from the task's worktree as it is then,
//   and all are merged, never more open at once than the cap;
// - two sub-tasks whose merges into the task branch conflict: the second merge is aborted,
//   the worker told which files (its branch kept for this run only, never pushed), and it
//   does that work itself; the record carries only its reply, and the job ends DONE;
// - a sub-task's worktree whose setup fails: the run stops there, one line naming the command (a
//   run cannot comment or record state); the lead dispatches the task again, then takes it over,
//   and its own run records the failure, says it once and waits for the person — no protocol
//   failure from an infrastructure fault; the fixed config and /retry carry the job to DONE.

import { describe, expect, it } from "vitest";
import { runTaskInItsRun, tasksInOwnRunsRecording } from "../support/engine/task-run-pushes.js";
import { EXECUTE_STEPS, pass, worker } from "../support/engine/recordings.js";
import { call, expecting, say as sayStep, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";
import { git, type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { commitConfig, say } from "../support/engine/person.js";
import { botComments, setupOf, state } from "../support/engine/inspect.js";
import {
  approvedToDone,
  dispatchedToRuns,
  expectRunDone,
  PER_TASK,
  recordedRuns,
} from "../support/engine/task-run-jobs.js";
import { bwrapSuite } from "../support/sandbox/sandbox-fixtures.js";

// Setup commands run in the real sandbox.
const { bit, skipped } = bwrapSuite();

const dispatch = (id: string, brief: string) => call("dispatch", { id, brief, files: [] });

/**
 * hello's one record, its run's: done, carrying only the worker's reply, and the worker's
 * `workerTurns` turns (on the lead's message, then on its sub-tasks' mail).
 */
function helloDoneRecord(job: LocalJob, workerTurns: number): { head: string } {
  const record = JSON.parse(git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json")) as {
    head: string;
    done: boolean;
    sends: { kind: string }[];
    workerTurns?: number;
  };
  expect(record.done).toBe(true);
  expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);
  expect(record.workerTurns).toBe(workerTurns);
  return record;
}

const newJob = useLocalJobs();

describe("sub-tasks in a task's own run, past the fan-out cap", () => {
  it("fanOut 2, 3 sub-tasks: hello-c is queued (the worker told), starts when hello-a closes — on the task branch with hello-a merged and hello-b not — never more than 2 open (from the live log and the branch's history); all 3 merged, 1 record: DONE", async () => {
    const job = await newJob({
      config: `${PER_TASK}fanOut: 2\n`,
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
          tools(
            dispatch("hello-a", "Write a.txt"),
            dispatch("hello-b", "Write b.txt"),
            dispatch("hello-c", "Write c.txt"),
          ),
          expecting(sayStep("Waiting for my sub-tasks."), "Task hello-c is queued"),
          expecting(tools(call("close", { task: "hello-a" })), "a.txt written"),
          sayStep("Waiting for b and c."),
          expecting(tools(call("close", { task: "hello-b" })), "b.txt written"),
          sayStep("Waiting for c."),
          expecting(tools(call("close", { task: "hello-c" })), "c.txt written"),
          tools(call("reply", { text: "hello.txt written, with a.txt, b.txt and c.txt" })),
          sayStep("done"),
        ],
        "worker@dispatch:hello-a": worker("a.txt"),
        "worker@dispatch:hello-b": worker("b.txt"),
        "worker@dispatch:hello-c": worker("c.txt"),
        "verifier@verify:hello-a-1": pass(),
        "verifier@verify:hello-b-1": pass(),
        "verifier@verify:hello-c-1": pass(),
        "worker@dispatch:world": worker("world.txt"),
      }),
    });
    const runs = recordedRuns();
    const deps = await dispatchedToRuns(job, runs.port);
    const from = job.lines.length;
    await expectRunDone(job, "hello", "901");
    // The run's live log: each sub-task dispatched (started), queued, merged — in order.
    const log = job.lines
      .slice(from)
      .filter((l) => ["DISPATCH", "QUEUED", "MERGED"].includes(l.event))
      .map((l) => `${l.event} ${l.detail.split(" ").slice(0, 2).join(" ")}`);
    expect(log).toEqual([
      "DISPATCH task hello-a",
      "DISPATCH task hello-b",
      "QUEUED task hello-c",
      "MERGED task hello-a",
      "DISPATCH task hello-c",
      "MERGED task hello-b",
      "MERGED task hello-c",
    ]);
    let open = 0;
    let most = 0;
    for (const line of log) {
      open += line.startsWith("DISPATCH") ? 1 : line.startsWith("MERGED") ? -1 : 0;
      most = Math.max(most, open);
    }
    expect(most).toBe(2);
    // The branch's history says the same: hello-c's turn was made on the task branch with
    // hello-a merged and hello-b not yet.
    const record = helloDoneRecord(job, 4);
    const commitOf = (grep: string) =>
      git(job.repoDir, "log", "--format=%H", "--fixed-strings", `--grep=${grep}`, record.head);
    const cTurn = commitOf("worker@dispatch:hello-c turn");
    const ancestor = (a: string, b: string) => {
      try {
        git(job.repoDir, "merge-base", "--is-ancestor", a, b);
        return true;
      } catch {
        return false;
      }
    };
    expect(ancestor(commitOf("merge task hello-a"), cTurn)).toBe(true);
    expect(ancestor(commitOf("merge task hello-b"), cTurn)).toBe(false);
    expect(git(job.repoDir, "ls-tree", "--name-only", record.head).split("\n")).toEqual(
      expect.arrayContaining(["a.txt", "b.txt", "c.txt", "hello.txt"]),
    );
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-*")).toBe("");

    await runTaskInItsRun(job, "world", "902");
    await approvedToDone(job, deps, await wake(1, deps));
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
    for (const f of ["a.txt", "b.txt", "c.txt"]) expect(files).toContain(f);
  });
});

describe("sub-tasks in a task's own run whose merges conflict", () => {
  it("hello-a and hello-b both write x.txt: hello-a merged, hello-b's merge aborted (1 conflict, on x.txt, said in the live log), the worker told and it writes x.txt itself; 1 record, only its reply, no sub-task branch pushed: DONE", async () => {
    const wrote = (who: string) => [
      tools(call("write_file", { path: "x.txt", content: `${who}\n` })),
      tools(call("reply", { text: `${who} wrote x.txt` })),
      sayStep("done"),
    ];
    const job = await newJob({
      config: PER_TASK,
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
          tools(dispatch("hello-a", "Write x.txt: a"), dispatch("hello-b", "Write x.txt: b")),
          sayStep("Waiting for my sub-tasks."),
          expecting(tools(call("close", { task: "hello-a" })), "a wrote x.txt"),
          sayStep("Waiting for b."),
          expecting(tools(call("close", { task: "hello-b" })), "b wrote x.txt"),
          sayStep("Closed b."),
          expecting(
            tools(call("write_file", { path: "x.txt", content: "a\nb\n" })),
            "Merging task hello-b into your branch conflicted on: x.txt",
          ),
          tools(call("reply", { text: "hello.txt and x.txt written" })),
          sayStep("done"),
        ],
        "worker@dispatch:hello-a": wrote("a"),
        "worker@dispatch:hello-b": wrote("b"),
        "verifier@verify:hello-a-1": pass(),
        "verifier@verify:hello-b-1": pass(),
        "worker@dispatch:world": worker("world.txt"),
      }),
    });
    const deps = await dispatchedToRuns(job, recordedRuns().port);
    const from = job.lines.length;
    await expectRunDone(job, "hello", "901");
    const said = job.lines
      .slice(from)
      .filter((l) => ["MERGED", "CONFLICT"].includes(l.event))
      .map((l) => `${l.event} ${l.detail}`);
    expect(said).toEqual(["MERGED task hello-a into cfa/1-hello", "CONFLICT task hello-b: x.txt"]);
    const record = helloDoneRecord(job, 4);
    expect(git(job.repoDir, "show", `${record.head}:x.txt`)).toBe("a\nb");
    const merges = git(job.repoDir, "log", "--merges", "--format=%s", record.head);
    expect(merges).toContain("merge task hello-a");
    expect(merges).not.toContain("merge task hello-b");
    // The kept branch was this run's alone.
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-*")).toBe("");

    await runTaskInItsRun(job, "world", "902");
    await approvedToDone(job, deps, await wake(1, deps));
    expect(git(job.repoDir, "show", "cfa/1:x.txt")).toBe("a\nb");
  });
});

describe(`sub-tasks in a task's own run, when something fails${skipped}`, () => {
  bit(
    "a sub-task's setup fails in the task's run: each run stops at it with one line (2 runs, nothing folded); the lead takes the task over, records the failure (hello-a, exit 3, its last lines), says it once and waits — 0 failures; fixed and /retry: DONE",
    async () => {
      // Fails in a worktree holding hello.txt: hello-a's, made from hello's after its write.
      const broken = `${PER_TASK}setup: ["test ! -f hello.txt || { echo 'npm ERR! 404 left-pad is not in this registry' >&2; exit 3; }"]\n`;
      const job = await newJob({
        config: broken,
        recording: tasksInOwnRunsRecording({
          "project-lead@state:execute:1": EXECUTE_STEPS(true),
          "worker@dispatch:hello": [
            tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
            tools(dispatch("hello-a", "Write a.txt")),
            sayStep("Waiting for hello-a."),
            expecting(tools(call("close", { task: "hello-a" })), "a.txt written"),
            tools(call("reply", { text: "hello.txt written, with a.txt" })),
            sayStep("done"),
          ],
          "worker@dispatch:hello-a": worker("a.txt"),
          "verifier@verify:hello-a-1": pass(),
          "worker@dispatch:world": worker("world.txt"),
        }),
      });
      const runs = recordedRuns();
      const deps = await dispatchedToRuns(job, runs.port); // hello in run 901, world in run 902
      const failing = /^cfa\/engine: task hello-a's setup failed at `.*npm ERR! 404.*` \(exit 3\)$/;
      await expect(runTaskInItsRun(job, "hello", "901")).rejects.toThrow(failing);
      // The worker's turn ended, its sub-task never ran: the record is unended.
      const dead = JSON.parse(
        git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
      ) as { ended: boolean };
      expect(dead.ended).toBe(false);
      await runTaskInItsRun(job, "world", "902");
      runs.ended.set("901", { status: "completed", conclusion: "failure" });
      await wake(1, deps); // world folded; hello's run died: epoch 2 in run 903
      expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
      await expect(runTaskInItsRun(job, "hello", "903", { epoch: 2 })).rejects.toThrow(failing);
      // No run records a setup: only the lead's run writes the job's state.
      expect(setupOf(job)?.failed).toBeUndefined();

      runs.ended.set("903", { status: "completed", conclusion: "failure" });
      const waiting = await wake(1, deps); // the lead takes hello over and hits it itself
      expect(waiting.state).toBe("EXECUTE");
      expect(waiting.waitingOn).toContain("to fix the workspace setup");
      expect(runs.dispatched).toHaveLength(3);
      expect(state(job).failures).toBe(0);
      expect(setupOf(job)?.failed).toMatchObject({ workspace: "hello-a", exitCode: 3 });
      expect(setupOf(job)?.failed?.tail).toContain("npm ERR! 404 left-pad is not in this registry");
      expect(
        setupOf(job)!
          .runs.filter((r) => !r.ok)
          .map((r) => r.workspace),
      ).toEqual(["hello-a"]);
      const status = (await botComments(job)).find((c) => c.block.kind === "status");
      expect(status!.body.split("Setup failed in `hello-a`")).toHaveLength(2);
      // Another wake with nothing new runs nothing again.
      await wake(1, deps);
      expect(setupOf(job)!.runs.filter((r) => !r.ok)).toHaveLength(1);

      await commitConfig(job, `${PER_TASK}setup: ["echo fixed"]\n`);
      await say(job, "/retry");
      const atGate = await wake(1, deps);
      expect(setupOf(job)?.failed).toBeUndefined();
      await approvedToDone(job, deps, atGate);
      expect(state(job).failures).toBe(0);
      expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).toContain("a.txt");
    },
    240_000,
  );
});
