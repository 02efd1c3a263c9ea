// The engine's one door: entry points (cli/, worker/) import the engine from here only, so
// its sub-rooms can change without touching them.
//
// Its rooms, bottom to top. Each imports only the rooms below it, type and dynamic imports
// too (`npm run lint:layers`, .dependency-cruiser.json); where a lower room must call up, it
// is handed a callback (turn/wake-runtime.ts: poll, lateJoin, appliedOn, pause).
//
//   tree/     a worktree's files and git: bounded reads and writes, commits, the records' ledger
//   job/      the session: records, bus and worktrees written back (commits, outbox, the PR)
//   turn/     one instance's turn: its workspace, agent run, model calls, tool calls, runtime
//   setup/    a workspace set up before an agent works in it
//   fanout/   tasks in runs of their own: where a task runs, dispatched, folded, taken over
//   tasks/    a task on the lead's side: provisioned, verified, merged or dropped
//   flow/     between states: transitions, leads, escalations, nudges, failures, recovery
//   people/   what people say: read, judged, applied at a turn's end, looked at between calls
//   apply/    what runs turns: the scheduler, a turn run and applied, task runs' turns folded
//   publish/  the job's face after a wake: the status comment, the check runs
//   wake.ts   a job's wake, the recipe over all of them; wake-task.ts, a task's own run

export { wake } from "./wake.js";
export type { WakeOptions, WakeSummary } from "./wake.js";
export type { EngineDeps, ProgressLine } from "./job/engine-deps.js";
export { readTaskRunStanding } from "./fanout/read-task-run-standing.js";
export type { TaskRunStanding } from "./fanout/task-run-standing.js";
export { wakeTask } from "./wake-task.js";
export type { TaskWakeOptions, TaskWakeSummary } from "./wake-task.js";
