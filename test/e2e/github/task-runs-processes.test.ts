// Tasks in runs of their own, each run a process of its own (test/support/github/process-job.ts):
// the released worker (`node dist/cfa-worker.mjs`, built from this checkout) started for every
// dispatch on one of three runners, GitHub's git side over HTTP with a token per run, the fake
// GitHub over HTTP, the model over HTTP answering by each conversation's position. A job of
// three tasks, `execute.runners: per-task`:
// - a clean run: DONE with every task's files, each task dispatched once, every run starting on
//   a state that names its epoch, no cancel at all;
// - a task run killed (SIGKILL) after its first push: its task alone is redone, from its last
//   folded turn, in one more run; DONE with its files on cfa/1, merged at the commit its verifier
//   passed; its siblings dispatched once; no cancel (the run had completed: a cancel of a
//   finished run is one request, answered 409 and never retried, test/integration/worker).

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, expecting, recording, say, tools } from "../../support/engine/script.js";
import { createArtifact, finish, gate, pass } from "../../support/engine/recordings.js";
import { git } from "../../support/git/temp-repo.js";
import { createProcessJob, type ProcessJob } from "../../support/github/process-job.js";
import { makeReleaseTree, type ReleaseTree } from "../../support/release/release-tree.js";
import { taskRunStanding } from "../../../src/engine/fanout/task-run-standing.js";
import { parseJobRecord } from "../../../src/protocol/job-record.js";
import { engineState } from "../../../src/records/engine-state.js";
import { bound } from "../../support/time-bound.js";

const TASKS = ["capitalize", "camel-case", "truncate"] as const;
const CONFIG = "execute:\n  runners: per-task\n";

const file = (task: string) => `src/${task}.js`;

const EDITOR = "str_replace_based_edit_tool";

/**
 * Three tasks dispatched at once; the lead closes all three once it has heard all three. The
 * released worker starts a job with today's tools (CURRENT_TOOL_SET: the editor and bash), so
 * the agents write with the editor.
 */
function threeTasks() {
  const lead = "You lead the EXECUTE phase of job #1.";
  const script = recording({
    "intent-lead@state:intent:1": [
      expecting(
        createArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
        "You lead the INTENT phase of job #1.",
      ),
      gate("INTENT.md", "Is this your intent?"),
      finish("APPROVED_INTENT"),
    ],
    "project-lead@state:plan:1": [
      expecting(
        createArtifact("PLAN.md", "# Plan\n\nThree tasks.\n"),
        "You lead the PLAN phase of job #1.",
      ),
      gate("PLAN.md", "Plan ready"),
      finish("APPROVED_PLAN", "approved"),
    ],
    "project-lead@state:execute:1": [
      expecting(
        tools(
          ...TASKS.map((t) =>
            call("dispatch", { id: t, brief: `Write ${file(t)} exporting ${t}`, files: [] }),
          ),
        ),
        lead,
      ),
      say("Dispatched three tasks."),
      say("Waiting for the others."),
      say("Waiting for the last one."),
      ...TASKS.map((t) => tools(call("close", { task: t }))),
      createArtifact("WORK_SUMMARY.md", "# Summary\n\nThree helpers.\n"),
      gate("WORK_SUMMARY.md", "Work done"),
      finish("APPROVED_WORK", "approved"),
    ],
    ...Object.fromEntries(
      TASKS.flatMap((t) => [
        [
          `worker@dispatch:${t}`,
          [
            expecting(
              tools(
                call(EDITOR, {
                  command: "create",
                  path: file(t),
                  file_text: `export const ${t} = 1;\n`,
                }),
              ),
              "Your task",
            ),
            tools(call("reply", { text: `${file(t)} written` })),
            say("done"),
          ],
        ],
        [`verifier@verify:${t}-1`, [expecting(pass()[0]!, `Verify task \`${t}\` of job #1.`)]],
      ]),
    ),
  });
  return { ...script, toolSet: "bash-editor" as const };
}

let release: ReleaseTree;
beforeAll(async () => {
  release = await makeReleaseTree();
}, bound(120_000));
afterAll(async () => release.cleanup());

/** INTENT and PLAN approved, EXECUTE's runs to its gate, approved: DONE. */
async function toDone(job: ProcessJob): Promise<void> {
  await job.start();
  await job.approve(); // INTENT → PLAN
  await job.approve(); // PLAN → EXECUTE, whose runs go on to the summary's gate
  expect(job.state().state, job.output()).toBe("EXECUTE");
  await job.approve();
  expect(job.state().state, job.output()).toBe("DONE");
}

const taskRuns = (job: ProcessJob) => job.pool.runs.filter((r) => r.job === "task");

/** Every task run started on a job branch whose state names its epoch for its task. */
function expectEachRunNamed(job: ProcessJob): void {
  for (const run of taskRuns(job)) {
    const text = run.stateAtDispatch;
    expect(text, `run ${run.id}`).not.toBeNull();
    const record = parseJobRecord(text!, "state.json");
    const standing = taskRunStanding(
      record,
      engineState(record),
      run.inputs["task"]!,
      Number(run.inputs["epoch"]),
    );
    expect(standing, `run ${run.id} ${JSON.stringify(run.inputs)}`).toMatchObject({ ok: true });
  }
}

/** cfa/1 holds every task's file, merged at the commit its verifier passed. */
function expectMergedAsVerified(job: ProcessJob): void {
  const files = git(job.bare, "ls-tree", "-r", "--name-only", "cfa/1");
  for (const t of TASKS) expect(files, job.output()).toContain(file(t));
  expect(files).not.toContain(".cfa/turns/");
  const tasks = job.state().engine["tasks"] as Record<
    string,
    { status: string; lastVerdict?: string; verifiedHead?: string }
  >;
  const merged = git(job.bare, "log", "--merges", "--format=%P", "cfa/1").split("\n");
  for (const t of TASKS) {
    expect(tasks[t]).toMatchObject({ status: "merged", lastVerdict: "pass" });
    const verified = tasks[t]!.verifiedHead!;
    // The verified commit holds the task's work, and it is what cfa/1 merged.
    expect(git(job.bare, "show", `${verified}:${file(t)}`)).toContain("export const");
    expect(
      merged.some((p) => p.split(" ")[1] === verified),
      t,
    ).toBe(true);
  }
}

describe("tasks in runs of their own, each run a process (the released worker, 3 runners)", () => {
  let job: ProcessJob | undefined;
  afterEach(async () => {
    if (process.env.CFA_PROCESS_DEBUG && job)
      for (const r of job.pool.runs)
        console.log(
          r.id,
          r.job,
          JSON.stringify(r.inputs),
          r.conclusion,
          Math.round((r.at.started ?? 0) - r.at.dispatched),
          Math.round((r.at.workerEnded ?? 0) - (r.at.started ?? 0)),
          Math.round((r.at.completed ?? 0) - (r.at.workerEnded ?? 0)),
        );
    if (process.env.CFA_PROCESS_DEBUG && job) {
      const runs = job.pool.runs;
      for (const t of runs.filter((r) => r.job === "task")) {
        const lead = runs.find(
          (r) =>
            r.job === "work" &&
            (r.at.started ?? Infinity) <= t.at.dispatched &&
            (r.at.completed ?? Infinity) >= t.at.dispatched,
        );
        if (lead)
          console.log(
            `task ${t.id}: its lead ${lead.id} ended ${Math.round(lead.at.completed! - t.at.dispatched)} ms after dispatching it`,
          );
      }
      console.log(job.github.answered.map((a) => `${a.route}:${a.status}`).join(" "));
      for (const r of job.pool.runs.filter((x) => x.job === "task"))
        console.log(`--- ${r.id}`, r.output.join("\n"));
    }
    await job?.cleanup();
  });

  it(
    "a clean run: DONE with all 3 tasks' files, each dispatched once (3 task runs), each run starting on a state naming its epoch, no cancel, every model step answered once",
    async () => {
      job = await createProcessJob({ release, recording: threeTasks(), config: CONFIG });
      await toDone(job);
      expect(
        taskRuns(job)
          .map((r) => `${r.inputs["task"]}@${r.inputs["epoch"]}`)
          .sort(),
      ).toEqual(TASKS.map((t) => `${t}@1`).sort());
      expectEachRunNamed(job);
      expectMergedAsVerified(job);
      expect(job.github.answered.filter((a) => a.route === "cancel-run")).toEqual([]);
      expect(job.api.unplayed()).toEqual({});
      expect(new Set(job.api.charged).size).toBe(job.api.charged.length);
      expect(job.invalid).toEqual([]);
    },
    bound(600_000),
  );

  it(
    "capitalize's run killed after its first push: capitalize alone is redone (epoch 2, from its last folded turn), its siblings dispatched once; DONE with its files on cfa/1 at the verified commit; no cancel of the completed run",
    async () => {
      job = await createProcessJob({ release, recording: threeTasks(), config: CONFIG });
      job.pool.killAfterPushes((r) => r.inputs["task"] === "capitalize", 1);
      await toDone(job);
      const runs = taskRuns(job).map((r) => `${r.inputs["task"]}@${r.inputs["epoch"]}`);
      expect(runs.sort()).toEqual(["camel-case@1", "capitalize@1", "capitalize@2", "truncate@1"]);
      expect(job.pool.runs.filter((r) => r.killed).map((r) => r.inputs["task"])).toEqual([
        "capitalize",
      ]);
      expectEachRunNamed(job);
      expectMergedAsVerified(job);
      // Redone: capitalize's worker answered its first step twice; nothing else was paid twice.
      const twice = job.api.charged.filter((c, i) => job!.api.charged.indexOf(c) !== i);
      expect(twice.every((c) => c.startsWith("worker@dispatch:capitalize#"))).toBe(true);
      expect(job.api.unplayed()).toEqual({});
      // The killed run had completed when the lead judged it: nothing to cancel, no request.
      expect(job.github.answered.filter((a) => a.route === "cancel-run")).toEqual([]);
      expect(job.invalid).toEqual([]);
    },
    bound(600_000),
  );
});
