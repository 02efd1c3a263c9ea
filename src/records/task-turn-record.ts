// A task run's per-turn record. A task that runs in its own workflow run
// writes only its own branch `cfa/<N>-<task>`: its code, and one file per turn under
// `.cfa/turns/` saying what the turn decided and what it cost. The lead's run is the only
// writer of the job branch and the bus; it reads these files from the task branch at its next
// wake and folds them in (src/engine/fanout/fold-task-records.ts). Everything in them was
// written by a runner an agent's commands ran on: it is parsed here, where it enters, and
// checked there before anything of it counts.

import * as z from "zod";
import { TASK_ID } from "./job-paths.js";
import { parseJson } from "../protocol/parse-json.js";

/** The longest a turn's timing may say (ms): a day, past any runner's job limit. */
export const MAX_TURN_MS = 24 * 60 * 60 * 1000;

/** Where a task branch holds its turn records. */
export const TASK_TURNS_DIR = ".cfa/turns";

/**
 * The worker's transcript as its task runs carry it (the next run of the task resumes the
 * conversation from it). Not a record: the lead's reader passes over it, and the lead's
 * adoption of a done head takes `.cfa/turns/` out of the tree before any merge.
 */
export const TASK_TRANSCRIPT_PATH = `${TASK_TURNS_DIR}/transcript.jsonl`;

/** One record's file: the turn's number in the task and the epoch of the run that wrote it. */
export function taskTurnPath(seq: number, epoch: number): string {
  return `${TASK_TURNS_DIR}/${String(seq).padStart(6, "0")}-e${epoch}.json`;
}

/** The key a record is charged under: one per (epoch, seq), however often it is rewritten. */
export function taskTurnKey(r: { epoch: number; seq: number }): string {
  return `e${r.epoch}/${r.seq}`;
}

const SendSchema = z.strictObject({
  /** The recipient's address key (`agent@thread`). */
  to: z.string().min(1).max(200),
  kind: z.enum(["reply", "ask", "report"]),
  text: z.string().max(100_000),
  /**
   * An ask's ask_question call in the worker's transcript: the answer resolves it there
   * (run-instance-turn.ts checks it against the transcript's own pending call).
   */
  toolUseId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/)
    .optional(),
});

/**
 * What opened one of the worker's later turns in a record (its turns after the one on the
 * lead's message): a reply from one of its sub-tasks (by the sub-task's id: its worker sent
 * it), the run's own notice that its subtree went quiet, which the lead renders itself from
 * the sub-tasks it names (subtree-mail.ts), so no text of the run's stands for it, or the
 * engine's word about one sub-task.
 */
export const SubtreeMailSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("reply"),
    from: z.string().regex(TASK_ID),
    text: z.string().max(100_000),
  }),
  z.strictObject({
    kind: z.literal("notice"),
    notice: z.enum(["quiet", "dropped"]),
    tasks: z.array(z.string().regex(TASK_ID)).min(1).max(1000),
  }),
  /**
   * The engine's word to the worker about one of its sub-tasks in the run (its merge
   * conflicted, it could not start): its text is the run's, in the engine's own form for
   * that sub-task (subtree-mail.ts checks both).
   */
  z.strictObject({
    kind: z.literal("engine"),
    about: z.string().regex(TASK_ID),
    text: z.string().max(100_000),
  }),
]);
export type SubtreeMail = z.infer<typeof SubtreeMailSchema>;

export const TaskTurnRecordSchema = z.strictObject({
  v: z.literal(1),
  job: z.int().positive(),
  task: z.string().regex(TASK_ID),
  /** The dispatch this run was started for (the `task` job's `epoch` input). */
  epoch: z.int().min(1).max(1000),
  /** 1, 2, … across the task's runs: the lead folds them in order, each once. */
  seq: z.int().min(1).max(100_000),
  /** The Actions run that wrote it (its `GITHUB_RUN_ID`), for the status comment. */
  run: z.string().regex(/^[0-9]{1,20}$/),
  /** Model calls paid so far in this turn, and what they cost: rewritten after every call. */
  calls: z.int().min(0).max(10_000),
  costUsd: z.number().min(0).max(1_000_000),
  /** False while the turn runs (only its cost counts); true once it ended. */
  ended: z.boolean(),
  /** What the ended turn decided: messages to its parent, and whether the task is done. */
  sends: z.array(SendSchema).max(50),
  done: z.boolean(),
  /** The commit of the task's code this turn ended on (the lead verifies it before a merge). */
  head: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .nullable(),
  /**
   * An ended turn's wall time and the time its commands took, each as alone on the runner (ms,
   * the engine's monotonic clock, measured in the task run as the lead's run measures its own:
   * command-clock.ts). The lead adds them to what `execute.runners: auto` weighs once per
   * record key (fold-task-records.ts). Absent while the turn runs, and in older records.
   */
  timing: z
    .strictObject({
      turnMs: z.number().min(0).max(MAX_TURN_MS),
      commandMs: z.number().min(0).max(MAX_TURN_MS),
    })
    .optional(),
  /**
   * The worker's own turns an ended record spans (absent: 1): its turn on the lead's message,
   * then its turns on its sub-tasks' replies in the same run (sub-tasks stay in their parent
   * task's run). The lead delivered only the first, so only the first opens on the lead's
   * message; the transcript it takes holds them all (task-transcript-take.ts).
   */
  workerTurns: z.int().min(1).max(1000).optional(),
  /**
   * The sub-tasks the worker dispatched in this record (absent: none): its later turns may
   * open on their replies, here or in a later record (fold-task-records.ts keeps them).
   */
  subtasks: z.array(z.string().regex(TASK_ID)).max(1000).optional(),
  /**
   * What each of the worker's later turns opened on, in order: one per turn after the first
   * (`workerTurns - 1`), absent when there are none. The lead checks each against the
   * sub-tasks dispatched, and the transcript's later turns against these (subtree-mail.ts).
   * The whole record stays under the reader's byte bound (task-turn-files.ts).
   */
  mail: z.array(SubtreeMailSchema).max(999).optional(),
});
export type TaskTurnRecord = z.infer<typeof TaskTurnRecordSchema>;

/** Parses one record file; null with the reason when it is not a record. */
export function parseTaskTurnRecord(
  text: string,
): { ok: true; record: TaskTurnRecord } | { ok: false; why: string } {
  const json = parseJson(text);
  if (!json.ok) return { ok: false, why: "not JSON" };
  const parsed = TaskTurnRecordSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, why: parsed.error.issues[0]?.message ?? "invalid" };
  return { ok: true, record: parsed.data };
}
