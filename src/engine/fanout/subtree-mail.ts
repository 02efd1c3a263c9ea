// The mail a task run's worker takes inside one record, after its turn on
// the lead's message: its sub-tasks' replies and the run's own notices that its subtree went
// quiet (wake-task.ts). The lead saw none of it, so the record says what each of the worker's
// later turns opened on (`mail`, one per turn after the first) and which sub-tasks the worker
// dispatched (`subtasks`). Pure. Checked once, at the fold (fold-task-records.ts):
// - as many openings as later turns: `workerTurns` is the run's word, and a turn with no
//   opening would be tied to nothing;
// - a reply comes from a sub-task the worker dispatched, in this record or an earlier folded
//   one (a sub-task may outlive its record when more of the lead's mail was waiting); a
//   sub-task id the lead knows as a task of the job (a sibling, the task itself) is never
//   this run's;
// - a notice names only such sub-tasks, and its text is the lead's, rendered here from the
//   same templates the run delivers it from: a run cannot put words of its own there;
// - the engine's word about one sub-task (its merge conflicted, it could not start) is about
//   such a sub-task and in the engine's form for it; the rest of its text is the run's.
// The transcript the lead takes then opens each later turn on that text (foldTaskRuns passes
// mailTurnOpening's, task-transcript-take.ts checks it), a reply only after the worker's own
// dispatch of its sender in that transcript, so each turn of the worker's the job's records
// hold is tied to a message. What a sub-task's reply says stays the run's word: the
// sub-task's conversation never leaves the run, so its text is checked only for being in the
// worker's transcript where the record says.

import type { SubtreeMail, TaskTurnRecord } from "../../records/task-turn-record.js";
import type { TurnOpening } from "./task-transcript-take.js";
import { parentNoticeAbout } from "./parent-notices.js";

/** The run's notice to a worker whose subtree went quiet with sub-tasks open. */
export function quietNotice(tasks: readonly string[]): string {
  return `Your sub-tasks ${tasks.join(", ")} are open, and neither they nor you have a message waiting. They exist in this run only: close each one that is done (it is verified and merged into your branch), or send it what it needs. Any still open when you end this turn are dropped unmerged.`;
}

/** The run's notice once those sub-tasks were dropped. */
export function droppedNotice(tasks: readonly string[]): string {
  return `Your sub-tasks ${tasks.join(", ")} were dropped unmerged: they stayed open with nothing to do. Do their work yourself in your task, then reply to your parent.`;
}

/**
 * The sub-task the engine's word to a worker is about, in the forms the engine tells a parent
 * of its task (fanout/parent-notices.ts: a merge that conflicted, a task that could not start),
 * or null for any other text.
 */
export function engineNoticeAbout(text: string): string | null {
  return parentNoticeAbout(text);
}

/**
 * The text a later worker turn opened on, as the worker's transcript holds it: a reply as the
 * engine renders one (run-instance-turn.ts, "Message from <sender>:"), a notice as delivered.
 */
export function mailOpening(m: SubtreeMail): string {
  if (m.kind === "reply") return `Message from worker@dispatch:${m.from}:\n${m.text}`;
  if (m.kind === "engine") return m.text;
  return m.notice === "quiet" ? quietNotice(m.tasks) : droppedNotice(m.tasks);
}

/** What the transcript take checks a later turn against: a reply with its sender. */
export function mailTurnOpening(m: SubtreeMail): TurnOpening {
  return m.kind === "reply" ? { text: mailOpening(m), from: m.from } : mailOpening(m);
}

/** Why a record's later worker turns are tied to nothing the run could deliver, or null. */
export function subtreeMailRefusal(
  record: Pick<TaskTurnRecord, "task" | "workerTurns" | "subtasks" | "mail">,
  /** Sub-tasks the worker dispatched in records folded before this one. */
  earlier: ReadonlySet<string>,
  /** The job's tasks as the lead knows them: none of them is a sub-task of this run's. */
  jobTasks: ReadonlySet<string>,
): string | null {
  const later = (record.workerTurns ?? 1) - 1;
  const mail = record.mail ?? [];
  if (mail.length !== later)
    return `${later} later worker turn${later === 1 ? "" : "s"} where its subtree delivered mail for ${mail.length}`;
  const mine = record.subtasks ?? [];
  const foreign = mine.find((id) => id === record.task || jobTasks.has(id));
  if (foreign !== undefined) return `a sub-task dispatched under a known task's id (${foreign})`;
  const dispatched = new Set([...earlier, ...mine]);
  for (const [i, m] of mail.entries()) {
    if (m.kind === "engine" && engineNoticeAbout(m.text) !== m.about)
      return `later worker turn ${i + 2} opens on the engine's word about ${m.about} in no form the engine says it`;
    const from = m.kind === "reply" ? [m.from] : m.kind === "engine" ? [m.about] : m.tasks;
    const unknown = from.find((id) => !dispatched.has(id));
    if (unknown !== undefined)
      return `later worker turn ${i + 2} opens on ${m.kind === "notice" ? "a notice naming" : m.kind === "reply" ? "a reply from" : "the engine's word about"} ${unknown}, no sub-task it dispatched`;
  }
  return null;
}
