// Recordings shared by the engine's end-to-end tests: a whole job, step by step.

import { call, recording, say, tools, type ScriptStep } from "./script.js";

export const ART = ".cfa/jobs/1";

export const writeArtifact = (name: string, content: string) =>
  tools(call("write_file", { path: `${ART}/${name}`, content }));
/** A lead writing its artifact with the text editor tool (the `bash-editor` tool set). */
export const createArtifact = (name: string, content: string) =>
  tools(
    call("str_replace_based_edit_tool", {
      command: "create",
      path: `${ART}/${name}`,
      file_text: content,
    }),
  );
export const gate = (name: string, text = `${name} is ready`) =>
  tools(call("ask_question", { kind: "gate", text, artifact: `${ART}/${name}` }));
export const finish = (outcome: string, reason = "approved by the person") =>
  tools(call("finish", { outcome, reason }));
export const pass = () => [tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" }))];
/** A proxy's run that approves the gate it was asked about. */
export const approveGate = () => [tools(call("answer", { text: "approved" }))];

export function worker(file: string): ScriptStep[] {
  return [
    tools(call("write_file", { path: file, content: `${file}\n` })),
    tools(call("reply", { text: `${file} written` })),
    say("done"),
  ];
}

/**
 * EXECUTE's lead dispatching task x, whose worker takes three calls (a.txt, b.txt, its
 * reply): a turn long enough for a person to act while it runs.
 */
export const dispatchX = () =>
  tools(call("dispatch", { id: "x", brief: "Create a.txt and b.txt", files: [] }));
export const busyWorker = (): ScriptStep[] => [
  tools(call("write_file", { path: "a.txt", content: "a\n" })),
  tools(call("write_file", { path: "b.txt", content: "b\n" })),
  tools(call("reply", { text: "x done" })),
  say("done"),
];

/**
 * The intent lead's one turn, long enough for a person to act while it runs: `looks` calls
 * to list_files, then INTENT.md written and its gate asked.
 */
export const slowIntentTurn = (looks: number, question = "Intent?"): ScriptStep[] => [
  ...Array.from({ length: looks }, () => tools(call("list_files", {}))),
  writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
  gate("INTENT.md", question),
];

/**
 * EXECUTE's lead ending its work: WORK_SUMMARY.md saying `summary`, its gate asking `question`,
 * approved.
 */
export const summedUp = (summary: string, question = "Work done"): ScriptStep[] => [
  writeArtifact("WORK_SUMMARY.md", `# Summary\n\n${summary}\n`),
  gate("WORK_SUMMARY.md", question),
  finish("APPROVED_WORK", "approved"),
];

export const INTENT_STEPS = (): ScriptStep[] => [
  writeArtifact("INTENT.md", "# Intent\n\nObjective: greet.\n"),
  gate("INTENT.md", "Is this your intent?"),
  finish("APPROVED_INTENT"),
];

export const PLAN_STEPS = (): ScriptStep[] => [
  writeArtifact("PLAN.md", "# Plan\n\nTasks: hello, world.\n"),
  gate("PLAN.md", "Plan ready"),
  finish("APPROVED_PLAN", "approved"),
];

/**
 * EXECUTE with two tasks, each closed (verified, merged) in its own lead turn. Local jobs
 * apply turns in start order, so hello's reply comes first; a job on GitHub applies turns as
 * they end (no round barrier), so with `anyOrder` the lead closes both once it has heard both.
 */
export const EXECUTE_STEPS = (anyOrder = false): ScriptStep[] => [
  tools(
    call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] }),
    call("dispatch", { id: "world", brief: "Create world.txt containing world", files: [] }),
  ),
  say("Dispatched two tasks."),
  ...(anyOrder
    ? [
        say("Waiting for the other task."),
        tools(call("close", { task: "hello" })),
        tools(call("close", { task: "world" })),
      ]
    : [
        tools(call("close", { task: "hello" })),
        say("Closed hello."),
        tools(call("close", { task: "world" })),
      ]),
  ...summedUp("Both files exist."),
];

/** EXECUTE with one task, hello: dispatched, closed (verified, merged), summed up and gated. */
export const ONE_TASK_EXECUTE_STEPS = (): ScriptStep[] => [
  tools(call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] })),
  say("Dispatched."),
  tools(call("close", { task: "hello" })),
  ...summedUp("hello.txt exists."),
];

/**
 * INTENT and PLAN each written and gated, the proxy approving both (q1, q2): the first
 * instances of a recording whose config lets the proxy answer, up to EXECUTE.
 */
export const proxiedToExecute = () => ({
  "intent-lead@state:intent:1": INTENT_STEPS(),
  "proxy@escalation:q1": approveGate(),
  "project-lead@state:plan:1": PLAN_STEPS(),
  "proxy@escalation:q2": approveGate(),
});

/** The whole job, every gate the person's; `anyOrder` for a job on GitHub (EXECUTE_STEPS). */
export function happyRecording(options: { anyOrder?: boolean } = {}) {
  return recording({
    "intent-lead@state:intent:1": INTENT_STEPS(),
    "project-lead@state:plan:1": PLAN_STEPS(),
    "project-lead@state:execute:1": EXECUTE_STEPS(options.anyOrder),
    "worker@dispatch:hello": worker("hello.txt"),
    "worker@dispatch:world": worker("world.txt"),
    "verifier@verify:hello-1": pass(),
    "verifier@verify:world-1": pass(),
  });
}

/**
 * A compact whole job for exhaustive crash tests: the person approves INTENT at a gate; PLAN
 * and EXECUTE run under `never`, their gates approved by the proxy; one task, verified and
 * merged. Two wakes end it (use COMPACT_CONFIG).
 */
export const COMPACT_CONFIG = "escalation:\n  PLAN: never\n  EXECUTE: never\n";

export function compactRecording() {
  return recording({
    "intent-lead@state:intent:1": INTENT_STEPS(),
    "project-lead@state:plan:1": PLAN_STEPS(),
    "proxy@escalation:q2": approveGate(),
    "project-lead@state:execute:1": ONE_TASK_EXECUTE_STEPS(),
    "worker@dispatch:hello": worker("hello.txt"),
    "verifier@verify:hello-1": pass(),
    "proxy@escalation:q3": approveGate(),
  });
}
