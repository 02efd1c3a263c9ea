// What this worker run does: wake one job, sweep every job, or (Actions-only mode) read the
// triggering event and cue the job it concerns. Flags win; otherwise the Actions event says.

import { readFileSync } from "node:fs";
import * as z from "zod";

export const WORKER_MODES = ["job", "sweep", "route"] as const;
export type WorkerModeKind = (typeof WORKER_MODES)[number];

export type WorkerMode =
  | { kind: "job"; job: number }
  | { kind: "sweep"; dryRun: boolean }
  | { kind: "route"; event: string; payload: unknown };

export const ROUTED_EVENTS = ["issues", "issue_comment", "pull_request_review", "pull_request"];

const USAGE =
  "usage: cfa-worker [--job <N> | --sweep [--dry-run] | --route]; with no flag, the Actions event decides";

export class WorkerUsageError extends Error {
  override readonly name = "WorkerUsageError";
}

const DispatchEventSchema = z.object({
  inputs: z.object({ job: z.string().regex(/^[1-9][0-9]{0,9}$/) }),
});

export interface ModeSources {
  argv: readonly string[];
  eventName: string | undefined;
  eventPath: string | undefined;
  /** CFA_JOB: the dispatch input, as the action passes it. */
  job: string | undefined;
  readFile?: (path: string) => string;
}

export function resolveWorkerMode(sources: ModeSources): WorkerMode {
  const readFile = sources.readFile ?? ((path: string) => readFileSync(path, "utf8"));
  const args = [...sources.argv];
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  for (const flag of flags) {
    if (!["--job", "--sweep", "--dry-run", "--route"].includes(flag)) {
      throw new WorkerUsageError(`cfa/worker: unknown option ${flag}; ${USAGE}`);
    }
  }
  const chosen = ["--job", "--sweep", "--route"].filter((f) => flags.has(f));
  if (chosen.length > 1) {
    throw new WorkerUsageError(`cfa/worker: ${chosen.join(" and ")} exclude each other; ${USAGE}`);
  }
  if (flags.has("--job")) return { kind: "job", job: jobNumber(args[args.indexOf("--job") + 1]) };
  if (flags.has("--sweep")) return { kind: "sweep", dryRun: flags.has("--dry-run") };
  if (flags.has("--route")) return routeMode(sources, readFile);

  if (sources.job !== undefined) return { kind: "job", job: jobNumber(sources.job) };
  switch (sources.eventName) {
    case "workflow_dispatch": {
      const payload = readEvent(sources, readFile);
      const parsed = DispatchEventSchema.safeParse(payload);
      if (!parsed.success) {
        throw new WorkerUsageError(
          'cfa/worker: this workflow_dispatch run has no `job` input (an issue number); dispatch it with inputs { job: "<N>" }',
        );
      }
      return { kind: "job", job: jobNumber(parsed.data.inputs.job) };
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

function jobNumber(text: string | undefined): number {
  if (text === undefined || !/^[1-9][0-9]{0,9}$/.test(text)) {
    throw new WorkerUsageError(
      `cfa/worker: the job must be an issue number, not ${JSON.stringify(text ?? "")}; ${USAGE}`,
    );
  }
  return Number(text);
}
