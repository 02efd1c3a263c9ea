// What this worker run does: wake one job, sweep every job, or (Actions-only mode) read the
// triggering event and cue the job it concerns; or, for a job's task in a run of its own
// (the workflow's `task` job), run that task, or only wake the job's lead
// (that job's last step). Flags win; otherwise the action's inputs, then the Actions event.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { TASK_ID } from "../records/job-paths.js";

export const WORKER_MODES = ["job", "sweep", "route", "task", "wake-lead"] as const;
export type WorkerModeKind = (typeof WORKER_MODES)[number];

export type WorkerMode =
  | { kind: "job"; job: number }
  | { kind: "sweep"; dryRun: boolean }
  | { kind: "route"; event: string; payload: unknown }
  /** One task of the job, in this run: its lead dispatched it with this epoch. */
  | { kind: "task"; job: number; task: string; epoch: number }
  /** Only dispatch a run of the job's lead (a task run's `if: always()` step). */
  | { kind: "wake-lead"; job: number };

export const ROUTED_EVENTS = ["issues", "issue_comment", "pull_request_review", "pull_request"];

const USAGE =
  "usage: cfa-worker [--job <N> [--task <id> --epoch <E> | --wake-lead] | --sweep [--dry-run] | --route]; with no flag, the Actions event decides";

export class WorkerUsageError extends Error {
  override readonly name = "WorkerUsageError";
}

const DispatchEventSchema = z.object({
  inputs: z.object({
    job: z.string().regex(/^[1-9][0-9]{0,9}$/),
    task: z.string().optional(),
    epoch: z.string().optional(),
  }),
});

export interface ModeSources {
  argv: readonly string[];
  eventName: string | undefined;
  eventPath: string | undefined;
  /** CFA_JOB: the dispatch input, as the action passes it. */
  job: string | undefined;
  /** CFA_TASK and CFA_EPOCH: the `task` job's inputs, as the action passes them. */
  task?: string | undefined;
  epoch?: string | undefined;
  /** CFA_WAKE_LEAD: "true" for the `task` job's last step. */
  wakeLead?: string | undefined;
  readFile?: (path: string) => string;
}

export function resolveWorkerMode(sources: ModeSources): WorkerMode {
  const readFile = sources.readFile ?? ((path: string) => readFileSync(path, "utf8"));
  const args = [...sources.argv];
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  for (const flag of flags) {
    if (
      !["--job", "--sweep", "--dry-run", "--route", "--task", "--epoch", "--wake-lead"].includes(
        flag,
      )
    ) {
      throw new WorkerUsageError(`cfa/worker: unknown option ${flag}; ${USAGE}`);
    }
  }
  const chosen = ["--job", "--sweep", "--route"].filter((f) => flags.has(f));
  if (chosen.length > 1) {
    throw new WorkerUsageError(`cfa/worker: ${chosen.join(" and ")} exclude each other; ${USAGE}`);
  }
  const after = (flag: string) =>
    flags.has(flag) ? (args[args.indexOf(flag) + 1] ?? "") : undefined;
  if (
    (flags.has("--task") || flags.has("--epoch") || flags.has("--wake-lead")) &&
    !flags.has("--job")
  )
    throw new WorkerUsageError(`cfa/worker: --task, --epoch and --wake-lead need --job; ${USAGE}`);
  if (flags.has("--job"))
    return jobMode(
      jobNumber(after("--job")),
      after("--task"),
      after("--epoch"),
      flags.has("--wake-lead") ? "true" : undefined,
    );
  if (flags.has("--sweep")) return { kind: "sweep", dryRun: flags.has("--dry-run") };
  if (flags.has("--route")) return routeMode(sources, readFile);

  if (sources.job !== undefined)
    return jobMode(jobNumber(sources.job), sources.task, sources.epoch, sources.wakeLead);
  switch (sources.eventName) {
    case "workflow_dispatch": {
      const payload = readEvent(sources, readFile);
      const parsed = DispatchEventSchema.safeParse(payload);
      if (!parsed.success) {
        throw new WorkerUsageError(
          'cfa/worker: this workflow_dispatch run has no `job` input (an issue number); dispatch it with inputs { job: "<N>" }',
        );
      }
      const { job, task, epoch } = parsed.data.inputs;
      return jobMode(jobNumber(job), task, epoch, undefined);
    }
    case "schedule":
      return { kind: "sweep", dryRun: flags.has("--dry-run") };
    default:
      if (sources.eventName !== undefined && ROUTED_EVENTS.includes(sources.eventName)) {
        return routeMode(sources, readFile);
      }
      throw new WorkerUsageError(
        `cfa/worker: cannot tell what to do for ${sources.eventName ? `a ${sources.eventName} event` : "a run outside Actions"}; ${USAGE}`,
      );
  }
}

function routeMode(sources: ModeSources, readFile: (path: string) => string): WorkerMode {
  if (sources.eventName === undefined) {
    throw new WorkerUsageError("cfa/worker: --route needs GITHUB_EVENT_NAME and GITHUB_EVENT_PATH");
  }
  return { kind: "route", event: sources.eventName, payload: readEvent(sources, readFile) };
}

function readEvent(sources: ModeSources, readFile: (path: string) => string): unknown {
  if (sources.eventPath === undefined) {
    throw new WorkerUsageError(
      "cfa/worker: GITHUB_EVENT_PATH is not set; run the worker in Actions",
    );
  }
  try {
    return JSON.parse(readFile(sources.eventPath)) as unknown;
  } catch (error) {
    throw new WorkerUsageError(
      `cfa/worker: cannot read the event file GITHUB_EVENT_PATH names: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * A job's run: its lead's (no task), one task's (a task and its epoch, both checked here,
 * where they enter), or only the lead's wake. Empty values are the inputs' defaults: absent.
 */
function jobMode(
  job: number,
  task: string | undefined,
  epoch: string | undefined,
  wakeLead: string | undefined,
): WorkerMode {
  const given = (v: string | undefined) =>
    v === undefined || v.trim() === "" ? undefined : v.trim();
  const t = given(task);
  const e = given(epoch);
  if (given(wakeLead) !== undefined) {
    if (given(wakeLead) !== "true")
      throw new WorkerUsageError(
        `cfa/worker: wake-lead is "true" or empty, not ${JSON.stringify(wakeLead)}`,
      );
    return { kind: "wake-lead", job };
  }
  if (t === undefined) {
    if (e !== undefined)
      throw new WorkerUsageError(`cfa/worker: an epoch without a task; ${USAGE}`);
    return { kind: "job", job };
  }
  if (!TASK_ID.test(t))
    throw new WorkerUsageError(
      `cfa/worker: the task must be a task id (lowercase letters, digits and -, at most 40), not ${JSON.stringify(t.slice(0, 60))}`,
    );
  // The record format's bound (src/records/task-turn-record.ts): 1 to 1000.
  if (e === undefined || !/^[1-9][0-9]{0,3}$/.test(e) || Number(e) > 1000)
    throw new WorkerUsageError(
      `cfa/worker: task ${t} needs its epoch (a number from 1, the lead's dispatch), not ${JSON.stringify((e ?? "").slice(0, 20))}`,
    );
  return { kind: "task", job, task: t, epoch: Number(e) };
}

function jobNumber(text: string | undefined): number {
  if (text === undefined || !/^[1-9][0-9]{0,9}$/.test(text)) {
    throw new WorkerUsageError(
      `cfa/worker: the job must be an issue number, not ${JSON.stringify(text ?? "")}; ${USAGE}`,
    );
  }
  return Number(text);
}
