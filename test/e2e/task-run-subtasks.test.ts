// Sub-tasks stay in their parent task's run (docs/install.md "Tasks in
// their own runs"). A worker in its task's own run dispatches two sub-tasks: both are
// provisioned from the task's worktree in that run, worked, verified and merged into the task
// branch there, their costs charged to the task's one record; the record carries only the
// worker's reply to its parent. The lead folds it, verifies and merges the task — DONE. The
// job branch moves only with the lead's run, and no sub-task branch ever reaches the remote.
// When the lead takes a task over from its runs (a second death, or a refused dispatch), it
// starts from the last folded turn's tree as a new run would: a dead run's half-work (a
// sub-task merged, never folded) is not merged.

import { describe, expect, it } from "vitest";
import {
  activeRuns,
  runTaskInItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import {
  approvedToDone,
  dispatchedToRuns,
  expectRunDone,
  numbered,
  PER_TASK,
  recordedRuns,
  withQuietSubtask,
  withSubtasks,
} from "../support/engine/task-run-jobs.js";
import { pass, worker } from "../support/engine/recordings.js";
import { call, expecting, say, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";
import type { Model } from "../../src/ports/model.js";
import { PushRejectedError } from "../../src/adapters/github/index.js";
import { asConversationModel, git, type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { fileOnBranch, state } from "../support/engine/inspect.js";
import { jobPaths } from "../../src/records/job-paths.js";
import { readJobRecords } from "../../src/cli/job-records.js";
import { readJobView } from "../../src/cli/job-view.js";

const dispatch = (id: string, brief: string) => call("dispatch", { id, brief, files: [] });

/**
 * The lead's next wake takes hello's worker transcript whole from the record's `head` (the
 * first of its 3 turns opens on the lead's message, the other two on its sub-tasks' replies,
 * which the lead never saw); then the job goes on to DONE (approvedToDone), both sub-tasks'
 * files on the job branch. Returns the job branch's files.
 */
async function transcriptTakenToDone(
  job: LocalJob,
  deps: Parameters<typeof wake>[1],
  head: string,
): Promise<string> {
  const atGate = await wake(1, deps);
  const helloFile = jobPaths(1).instance({ agent: "worker", thread: "dispatch:hello" });
  expect(fileOnBranch(job, helloFile)?.trim()).toBe(
    git(job.repoDir, "show", `${head}:.cfa/turns/transcript.jsonl`).trim(),
  );
  const view = readJobView((await readJobRecords(job.repoDir, 1))!);
  expect(view.instances.find((i) => i.key === "worker@dispatch:hello")?.turns).toHaveLength(3);
  await approvedToDone(job, deps, atGate);
  const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
  expect(files).toContain("a.txt");
  expect(files).toContain("b.txt");
  return files;
}

/**
 * Run 901 of hello as it dies inside its subtree: hello-a writes half.txt (the half-work,
 * which no later turn writes), is verified and merged into the task branch, then the run
 * stops right after hello-b's first call. Its one record is unended: the lead folds nothing.
 */
async function deadRunMidSubtree(job: LocalJob): Promise<void> {
  const inner = job.deps.model;
  const stop = new AbortController();
  const dying: Model = {
    complete: async (request, options) => {
      const response = await inner.complete(request, options);
      if (request.instance === "worker@dispatch:hello-b")
        stop.abort({ reason: "the run's time margin", now: false });
      if (request.instance !== "worker@dispatch:hello-a") return response;
      const content = response.content.map((b) =>
        b.type === "tool_use" && b.name === "write_file"
          ? { ...b, input: { path: "half.txt", content: "half\n" } }
          : b,
      );
      return { ...response, content };
    },
    ...(inner.limits ? { limits: (m: string) => inner.limits!(m) } : {}),
  };
  (job.deps as { model: Model }).model = dying;
  try {
    expect(await runTaskInItsRun(job, "hello", "901", { stop: stop.signal })).toEqual({
      stopped: "the run stops early: the run's time margin",
      turns: 0,
      done: false,
    });
  } finally {
    (job.deps as { model: Model }).model = inner;
  }
  const tip = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1-hello").split("\n");
  expect(tip).toEqual(expect.arrayContaining(["hello.txt", "half.txt"]));
  expect(git(job.repoDir, "log", "--merges", "--format=%s", "cfa/1-hello")).toContain(
    "merge task hello-a",
  );
  expect(
    JSON.parse(git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json")),
  ).toMatchObject({ ended: false });
}

/**
 * The lead's model (`deps`'s), noting the task branch's tree and files at each request of
 * hello's worker once `armed` is set.
 */
function watchingHello(job: LocalJob, deps: { model: Model }) {
  const inner = job.deps.model;
  const seen: { tree: string; files: string[] }[] = [];
  const watch = { armed: false, seen };
  const model: Model = {
    complete: async (request, options) => {
      if (watch.armed && request.instance === "worker@dispatch:hello")
        seen.push({
          tree: git(job.repoDir, "rev-parse", "cfa/1-hello^{tree}"),
          files: git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1-hello").split("\n"),
        });
      return inner.complete(request, options);
    },
    ...(inner.limits ? { limits: (m: string) => inner.limits!(m) } : {}),
  };
  deps.model = model;
  return watch;
}

/** After the lead took hello over: its first turn there, the job DONE, no half-work merged. */
async function expectTakenOverFromBase(
  job: LocalJob,
  deps: Parameters<typeof wake>[1],
  watch: ReturnType<typeof watchingHello>,
  /** The summary of the wake that took the task over. */
  took: Awaited<ReturnType<typeof wake>>,
) {
  const base = (state(job).engine.tasks as Record<string, { base: string }>).hello!.base;
  // The tree at the lead's first turn of hello's worker: the folded turn's (turn 0: the base).
  expect(watch.seen.length).toBeGreaterThan(0);
  expect(watch.seen[0]!.tree).toBe(git(job.repoDir, "rev-parse", `${base}^{tree}`));
  expect(watch.seen[0]!.files).not.toContain("half.txt");
  // Its transcript resumed at the same turn: the first request carries no turn of the dead run.
  const asked = asConversationModel(job.model).requests.filter(
    (r) => r.instance === "worker@dispatch:hello",
  );
  expect(asked[asked.length - watch.seen.length]?.step).toBe(0);
  // Taken back in one commit on the task branch, which the lead merged (its history).
  const log = git(job.repoDir, "log", "--format=%s", "cfa/1");
  expect(log.split("hello back to turn 0's tree (a run stopped inside turn 1)")).toHaveLength(2);
  expect(log.split("hello taken over by the lead, without its runs' records")).toHaveLength(2);
  // The lead's run did the whole subtree again in the wake it took the task over.
  await approvedToDone(job, deps, took);
  const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
  expect(files).toContain("a.txt");
  expect(files).toContain("b.txt");
  expect(files).not.toContain("half.txt");
  expect(files).not.toContain(".cfa/turns/");
  // Nothing the lead read of the taken-over branch afterwards was refused (its records gone).
  expect(job.lines.filter((l) => l.event === "REFUSED")).toEqual([]);
  expect(git(job.repoDir, "show", "cfa/1:hello.txt")).toBe("hello");
}

describe("sub-tasks in a task's own run", () => {
  const newJob = useLocalJobs();

  it("2 sub-tasks dispatched, verified and merged into the task branch in its run (1 record, only the reply to the parent, every call charged there); the lead folds, verifies, merges: DONE, no sub-task branch on the remote", async () => {
    const job = await newJob({
      recording: withSubtasks(),
      config: PER_TASK,
    });
    const deps = await dispatchedToRuns(job, activeRuns());
    const jobHead = git(job.repoDir, "rev-parse", "cfa/1");

    await expectRunDone(job, "hello", "901");
    await runTaskInItsRun(job, "world", "902");
    // The task runs wrote their task branches alone.
    expect(git(job.repoDir, "rev-parse", "cfa/1")).toBe(jobHead);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-*")).toBe("");
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as {
      sends: { kind: string; to: string }[];
      done: boolean;
      calls: number;
      head: string;
      workerTurns?: number;
      subtasks?: string[];
      mail?: { kind: string; from?: string }[];
    };
    expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);
    // The worker's turn on the lead's message, then one on each sub-task's reply: the record
    // says which (the lead ties each later turn to it: subtree-mail.ts).
    expect(record.workerTurns).toBe(3);
    expect(record.subtasks).toEqual(["hello-a", "hello-b"]);
    expect(record.mail?.map((m) => `${m.kind}:${m.from}`)).toEqual([
      "reply:hello-a",
      "reply:hello-b",
    ]);
    expect(record.done).toBe(true);
    // Every model call of the subtree: the worker's 8, each sub-task's 3, each verifier's 1.
    expect(record.calls).toBe(8 + 3 + 3 + 1 + 1);
    expect(git(job.repoDir, "ls-tree", "--name-only", record.head).split("\n")).toEqual(
      expect.arrayContaining(["a.txt", "b.txt", "hello.txt"]),
    );
    const merges = git(job.repoDir, "log", "--merges", "--format=%s", record.head);
    expect(merges).toContain("merge task hello-a");
    expect(merges).toContain("merge task hello-b");
    expect(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/transcript.jsonl").split(
        "The verifier passed task hello-",
      ),
    ).toHaveLength(3);

    const files = await transcriptTakenToDone(job, deps, record.head);
    expect(files).not.toContain(".cfa/turns/");
    expect(Object.keys(state(job).engine.tasks as object).sort()).toEqual(["hello", "world"]);
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello*")).toBe("");
  });

  it("a run stopped inside the subtree (a sub-task's first call made) ends no record and pushes no transcript; the lead dispatches epoch 2, which starts again from the task's base (1 commit back, the dead run's hello.txt gone), takes the subtree again and is folded once: DONE", async () => {
    const job = await newJob({ recording: withSubtasks(true), config: PER_TASK });
    const runs = recordedRuns();
    const deps = await dispatchedToRuns(job, runs.port); // hello in run 901, world in run 902

    // Run 901's time margin comes right after hello-a's first call.
    const inner = job.deps.model;
    const stop = new AbortController();
    const stopping: Model = {
      complete: async (request, options) => {
        const response = await inner.complete(request, options);
        if (asConversationModel(inner).requests.at(-1)?.instance === "worker@dispatch:hello-a")
          stop.abort({ reason: "the run's time margin", now: false });
        return response;
      },
      ...(inner.limits ? { limits: (m: string) => inner.limits!(m) } : {}),
    };
    (job.deps as { model: Model }).model = stopping;
    const first = await runTaskInItsRun(job, "hello", "901", { stop: stop.signal });
    (job.deps as { model: Model }).model = inner;
    expect(first).toEqual({
      stopped: "the run stops early: the run's time margin",
      turns: 0,
      done: false,
    });
    const dead = JSON.parse(git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json")) as {
      ended: boolean;
      calls: number;
    };
    expect(dead).toMatchObject({ ended: false, calls: 4 });
    // The worker's first turn rode on the sub-task's call record; its transcript did not.
    expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1-hello")).toContain("hello.txt");
    expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1-hello")).not.toContain(
      ".cfa/turns/transcript.jsonl",
    );
    await runTaskInItsRun(job, "world", "902");

    runs.ended.set("901", { status: "completed", conclusion: "success" });
    await wake(1, deps);
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    await expectRunDone(job, "hello", "903", { epoch: 2 });
    const log = git(job.repoDir, "log", "--format=%s", "cfa/1-hello");
    expect(log.split("hello back to turn 0's tree (a run stopped inside turn 1)")).toHaveLength(2);
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e2.json"),
    ) as { done: boolean; head: string; sends: unknown[] };
    expect(record.done).toBe(true);
    expect(record.sends).toHaveLength(1);
    // The tree epoch 2 started from: the task's base, without the dead run's hello.txt.
    const back = git(job.repoDir, "log", "--format=%H", "--grep=back to turn 0", "cfa/1-hello");
    expect(git(job.repoDir, "ls-tree", "-r", "--name-only", back)).not.toContain("hello.txt");
    expect(git(job.repoDir, "merge-base", "--is-ancestor", back, record.head)).toBe("");

    await transcriptTakenToDone(job, deps, record.head);
  });

  it("a sub-task that goes quiet (no reply) in the run: the worker is told once, then the sub-task is dropped unmerged (1 drop, its branch nowhere) and the worker does its work itself; 1 record, done: DONE", async () => {
    const job = await newJob({
      recording: withQuietSubtask(),
      config: PER_TASK,
    });
    const deps = await dispatchedToRuns(job, recordedRuns().port);
    await expectRunDone(job, "hello", "901");
    await runTaskInItsRun(job, "world", "902");
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as {
      done: boolean;
      head: string;
      sends: { kind: string }[];
      mail?: { kind: string; notice?: string; tasks?: string[] }[];
    };
    expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);
    // Its later turns opened on the run's two notices, which the lead renders again to check
    // (the lead taking them: task-run-subtasks-github.test.ts).
    expect(record.mail).toEqual([
      { kind: "notice", notice: "quiet", tasks: ["hello-a"] },
      { kind: "notice", notice: "dropped", tasks: ["hello-a"] },
    ]);
    expect(git(job.repoDir, "log", "--merges", "--format=%s", record.head)).not.toContain(
      "hello-a",
    );
    expect(git(job.repoDir, "branch", "--list", "cfa/1-hello-*")).toBe("");

    await approvedToDone(job, deps, await wake(1, deps));
  });

  it("questions in the subtree are refused at the tool (2 refusals: the worker's while its sub-task is open, the sub-task's own), each agent carries on in the same turn; the record carries no question: DONE", async () => {
    const ask = (text: string) => tools(call("ask_question", { kind: "question", text }));
    const job = await newJob({
      recording: tasksInOwnRunsRecording({
        "worker@dispatch:hello": [
          tools(dispatch("hello-a", "Write hello.txt")),
          ask("Which greeting?"),
          say("Waiting for hello-a."),
          expecting(tools(call("close", { task: "hello-a" })), "hello.txt written"),
          tools(call("reply", { text: "hello.txt written" })),
          say("done"),
        ],
        "worker@dispatch:hello-a": [ask("Which greeting?"), ...worker("hello.txt")],
        "verifier@verify:hello-a-1": pass(),
        "worker@dispatch:world": worker("world.txt"),
      }),
      config: PER_TASK,
    });
    const deps = await dispatchedToRuns(job, recordedRuns().port);
    await expectRunDone(job, "hello", "901");
    const refusals = (instance: string, text: string) =>
      asConversationModel(job.model)
        .requests.filter((r) => r.instance === instance)
        .some((r) => JSON.stringify(r.request.messages).includes(text));
    expect(refusals("worker@dispatch:hello", "your sub-tasks are open")).toBe(true);
    expect(refusals("worker@dispatch:hello-a", "a sub-task cannot ask a question")).toBe(true);
    const record = JSON.parse(
      git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
    ) as { sends: { kind: string }[] };
    expect(record.sends.map((m) => m.kind)).toEqual(["reply"]);

    await runTaskInItsRun(job, "world", "902");
    await approvedToDone(job, deps, await wake(1, deps));
  });

  it("the lead takes a task over after its runs died twice, one inside its subtree (hello-a's half.txt merged, hello-b started): the task branch's tree at the lead's first turn of its worker is the folded turn's (the base), its transcript resumed there; DONE, no half-work or run record merged", async () => {
    const job = await newJob({ recording: withSubtasks(true), config: PER_TASK });
    const runs = recordedRuns();
    const deps = await dispatchedToRuns(job, runs.port); // hello in run 901, world in run 902
    await deadRunMidSubtree(job);
    await runTaskInItsRun(job, "world", "902");

    runs.ended.set("901", { status: "completed", conclusion: "failure" });
    await wake(1, deps); // world folded; hello's run died: epoch 2 in run 903
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    const watch = watchingHello(job, deps);
    watch.armed = true;
    runs.ended.set("903", { status: "completed", conclusion: "failure" });
    const took = await wake(1, deps); // a second death: the lead takes hello over
    await expectTakenOverFromBase(job, deps, watch, took);
    expect(runs.dispatched).toHaveLength(3);
    const base = (state(job).engine.tasks as Record<string, { base: string }>).hello!.base;
    expect(job.lines.filter((l) => l.event === "TASK RUN").map((l) => l.detail)).toContain(
      `task hello runs in this run: its runs died or did nothing twice; it starts again from turn 0's tree (${base.slice(0, 12)})`,
    );
  });

  it("the lead takes a task over when the dispatch of its next run is refused (403: single), its last run having died inside its subtree: the same — the folded turn's tree at the lead's first turn, DONE, no half-work merged", async () => {
    const job = await newJob({ recording: withSubtasks(true), config: PER_TASK });
    const first = numbered();
    const runs = recordedRuns((i) =>
      i.epoch > 1
        ? { kind: "unavailable", reason: "403 Resource not accessible by integration" }
        : first(i),
    );
    const deps = await dispatchedToRuns(job, runs.port);
    await deadRunMidSubtree(job);
    await runTaskInItsRun(job, "world", "902");

    const watch = watchingHello(job, deps);
    watch.armed = true;
    runs.ended.set("901", { status: "completed", conclusion: "failure" });
    const took = await wake(1, deps); // world folded; hello's epoch 2 refused: the lead takes it over
    expect(runs.dispatched.at(-1)).toEqual({ job: 1, task: "hello", epoch: 2 });
    await expectTakenOverFromBase(job, deps, watch, took);
    const base = (state(job).engine.tasks as Record<string, { base: string }>).hello!.base;
    expect(job.lines.filter((l) => l.event === "RUNNERS").map((l) => l.detail)).toEqual([
      `tasks run in this run: 403 Resource not accessible by integration; task hello starts again from turn 0's tree (${base.slice(0, 12)})`,
    ]);
  });

  it("a cancelled run's push lands while the lead takes its task over (the forge refuses the lease once): said, the task left in its runs (its worker not run, its branch where it was), taken over at the next wake: the folded turn's tree, DONE, no half-work merged", async () => {
    const job = await newJob({ recording: withSubtasks(true), config: PER_TASK });
    const runs = recordedRuns();
    const deps = await dispatchedToRuns(job, runs.port);
    await deadRunMidSubtree(job);
    await runTaskInItsRun(job, "world", "902");
    runs.ended.set("901", { status: "completed", conclusion: "failure" });
    await wake(1, deps); // world folded; hello's run died: epoch 2 in run 903
    // The forge as GitHub answers a lease that no longer holds, once, for hello's branch.
    const forge = deps.forge;
    let refusals = 0;
    const racing = Object.create(forge) as typeof forge;
    racing.pushBranch = async (branch, update) => {
      if (branch === "cfa/1-hello" && refusals++ === 0)
        throw new PushRejectedError({ branch, ...update, detail: "stale info" });
      return forge.pushBranch(branch, update);
    };
    deps.forge = racing;
    const watch = watchingHello(job, deps);
    watch.armed = true;
    const tip = git(job.repoDir, "rev-parse", "cfa/1-hello");
    runs.ended.set("903", { status: "completed", conclusion: "failure" });
    await wake(1, deps);
    expect(refusals).toBe(1);
    expect(job.lines.map((l) => l.detail)).toContain(
      "task hello's branch moved while this run took it over (a cancelled run still pushing): taken over at the next wake",
    );
    expect(watch.seen).toEqual([]);
    expect(git(job.repoDir, "rev-parse", "cfa/1-hello")).toBe(tip);
    expect(Object.keys((state(job).engine.fanout as { tasks: object }).tasks)).toContain("hello");

    const took = await wake(1, deps); // the run still dead: the lead takes hello over now
    await expectTakenOverFromBase(job, deps, watch, took);
    expect(runs.dispatched).toHaveLength(3);
  });
});
