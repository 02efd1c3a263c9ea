// The `cfa` verbs: each one's name, its line in `cfa --help`, and its module, loaded only when
// that verb is used (its help or its work). `cfa --help` loads nothing but this list.

import type { Command } from "./command.js";

export interface Verb {
  name: string;
  /** One line for `cfa --help`. */
  summary: string;
  load(): Promise<Command>;
}

export const VERBS: readonly Verb[] = [
  {
    name: "run",
    summary: 'open a job for a request and start it: cfa run "add a --json flag"',
    load: async () => (await import("./commands/run.js")).runCommand,
  },
  {
    name: "approve",
    summary: "approve the artifact under review (INTENT.md, PLAN.md or WORK_SUMMARY.md)",
    load: async () => (await import("./commands/approve.js")).approveCommand,
  },
  {
    name: "reject",
    summary: 'request changes to the artifact under review: cfa reject 1 --comment "…"',
    load: async () => (await import("./commands/reject.js")).rejectCommand,
  },
  {
    name: "answer",
    summary: 'answer the job\'s open question: cfa answer 1 "use ISO dates"',
    load: async () => (await import("./commands/answer.js")).answerCommand,
  },
  {
    name: "withdraw",
    summary: "stop the job: every task dropped unmerged, the job WITHDRAWN",
    load: async () => (await import("./commands/withdraw.js")).withdrawCommand,
  },
  {
    name: "intervene",
    summary: 'redirect the current lead at its next model call: cfa intervene 1 "…"',
    load: async () => (await import("./commands/intervene.js")).interveneCommand,
  },
  {
    name: "pause",
    summary: "pause the job at its agents' next model calls, until `resume`",
    load: async () => (await import("./commands/pause.js")).pauseCommand,
  },
  {
    name: "resume",
    summary: "release a paused job, or wake the job again after a stopped command",
    load: async () => (await import("./commands/resume.js")).resumeCommand,
  },
  {
    name: "watch",
    summary: "the job's log, from its records (--follow to keep watching)",
    load: async () => (await import("./commands/watch.js")).watchCommand,
  },
  {
    name: "inspect",
    summary: "the job as a tree: states, gates, tasks, artifacts, turns, tokens, cost",
    load: async () => (await import("./commands/inspect.js")).inspectCommand,
  },
  {
    name: "show",
    summary: "the job's page: one HTML file with its status, pictures, history, tasks, artifacts",
    load: async () => (await import("./commands/show.js")).showCommand,
  },
  {
    name: "replay",
    summary: "re-run a recorded job in a fresh repository, without a model",
    load: async () => (await import("./commands/replay.js")).replayCommand,
  },
  {
    name: "demo",
    summary: "replay a recorded job from start to DONE in a fresh repository (no key needed)",
    load: async () => (await import("./commands/demo.js")).demoCommand,
  },
  {
    name: "clean",
    summary: "remove job areas of ended jobs and of repositories that are gone",
    load: async () => (await import("./commands/clean.js")).cleanCommand,
  },
];
