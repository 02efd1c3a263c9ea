// The job's state record (docs/protocol.md#persistence): current state, append-only transition
// history, backtrack count, failure accounting and running totals. Persisted as state.json.

import * as z from "zod";
import { ACTIONS, STATES, type LiveState } from "./fsm.js";
import { canonicalJson } from "./canonical-json.js";
import { RecordError } from "./errors.js";
import { parseJson } from "./parse-json.js";

export const JOB_RECORD_VERSION = 1;

export const TransitionEntrySchema = z.object({
  from: z.enum(STATES),
  action: z.enum(ACTIONS),
  to: z.enum(STATES),
  at: z.string(),
  by: z.string(),
  reason: z.string(),
});
export type TransitionEntry = z.infer<typeof TransitionEntrySchema>;

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof UsageSchema>;
export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

export const JobRecordSchema = z.object({
  v: z.literal(JOB_RECORD_VERSION),
  job: z.number().int().positive(),
  title: z.string(),
  state: z.enum(STATES),
  /** Which entry into the current state this is (1 on first entry, +1 on every re-entry). */
  entry: z.number().int().positive(),
  history: z.array(TransitionEntrySchema),
  /**
   * Entries into each live state made by the jobs before this one on its branch: a follow-up
   * (docs/protocol.md#jobs-and-states) counts its entries on from its parent's, so its lead
   * threads (`state:<phase>:<entry>`) never repeat one of theirs. Absent: none before.
   */
  priorEntries: z
    .object({
      INTENT: z.number().int().nonnegative(),
      PLAN: z.number().int().nonnegative(),
      EXECUTE: z.number().int().nonnegative(),
    })
    .optional(),
  backtracks: z.number().int().nonnegative(),
  /**
   * Consecutive state-level failures in the current state: a successful turn or a transition
   * resets it (failure.ts says what a successful turn is).
   */
  failures: z.number().int().nonnegative(),
  /**
   * Consecutive PENDING nudges of an idle lead in the current state: free of the retry budget,
   * bounded on their own; progress or a transition resets it. Absent in records written before it
   * existed.
   */
  nudges: z.number().int().nonnegative().default(0),
  turns: z.number().int().nonnegative(),
  usage: UsageSchema,
  costUsd: z.number().nonnegative(),
  createdAt: z.string(),
  /**
   * Engine bookkeeping that must survive a crash: forge event cursors, the next
   * structured-comment sequence number, gate and task bookkeeping. Opaque to the protocol.
   */
  engine: z.record(z.string(), z.unknown()),
});
export type JobRecord = z.infer<typeof JobRecordSchema>;

export type PriorEntries = NonNullable<JobRecord["priorEntries"]>;

export function newJobRecord(init: {
  job: number;
  title: string;
  at: string;
  priorEntries?: PriorEntries;
}): JobRecord {
  return {
    v: JOB_RECORD_VERSION,
    job: init.job,
    title: init.title,
    state: "INTENT",
    entry: 1 + (init.priorEntries?.INTENT ?? 0),
    history: [],
    ...(init.priorEntries === undefined ? {} : { priorEntries: { ...init.priorEntries } }),
    backtracks: 0,
    failures: 0,
    nudges: 0,
    turns: 0,
    usage: { ...ZERO_USAGE },
    costUsd: 0,
    createdAt: init.at,
    engine: {},
  };
}

/** Same record, same bytes. */
export function serializeJobRecord(job: JobRecord): string {
  return canonicalJson(job);
}

export function parseJobRecord(text: string, where = "state.json"): JobRecord {
  const json = parseJson(text);
  if (!json.ok) throw new RecordError("not valid JSON", where, { cause: json.error });
  const parsed = JobRecordSchema.safeParse(json.value);
  if (!parsed.success) {
    throw new RecordError(z.prettifyError(parsed.error).replace(/\n/g, "; "), where);
  }
  return parsed.data;
}

/**
 * How many times each live state has been entered by this job and the ones before it on its
 * branch: what a follow-up of it starts counting from (its `priorEntries`).
 */
export function entriesSoFar(job: JobRecord): PriorEntries {
  const count = (state: LiveState) =>
    (job.priorEntries?.[state] ?? 0) +
    job.history.filter((entry) => entry.to === state).length +
    // The record's first entry into INTENT is its creation, not a transition.
    (state === "INTENT" ? 1 : 0);
  return { INTENT: count("INTENT"), PLAN: count("PLAN"), EXECUTE: count("EXECUTE") };
}
