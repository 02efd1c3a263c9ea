// The engine's one door: entry points (cli/, worker/) import the engine from here only, so
// its sub-rooms can change without touching them. wake.ts is where a job runs.

export { wake } from "./wake.js";
export type { WakeOptions, WakeSummary } from "./wake.js";
export type { EngineDeps, ProgressLine } from "./job/engine-deps.js";
export { readTaskRunStanding } from "./fanout/read-task-run-standing.js";
export type { TaskRunStanding } from "./fanout/task-run-standing.js";
export { wakeTask } from "./wake-task.js";
export type { TaskWakeOptions, TaskWakeSummary } from "./wake-task.js";
