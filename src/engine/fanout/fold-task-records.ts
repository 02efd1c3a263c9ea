// Folding a task run's turn records into the job. Pure: the lead's run
// reads the records from the task branch and passes them here with what it has folded so far
// (the task's ledger, kept in the job's state on the job branch); what comes back says which
// records' decisions reach the bus, which are refused and why, and what to charge.
//
// Each record is checked exactly once before its decisions count:
// - who: a record of another job or task, or of the current epoch by a run the lead did not
//   dispatch for it (another task's run pushing here), is refused, charged nothing;
// - epoch: only the run the lead dispatched last (the ledger's epoch) decides; a record of an
//   older epoch (a run the lead gave up on) is charged but never folded; a newer one is forged;
// - sequence continuity: turn `folded + 1` next, in order; one already folded is skipped (a
//   record read again at the next wake folds nothing twice); after a gap nothing folds;
// - routing validity (docs/protocol.md#dispatch): a Send reduces only if its recipient is in
//   the sender's visibility — for a task whose sub-tasks stay in its run, only its parent is
//   seen from the bus; a record with any other recipient is refused whole;
// - the worker's later turns (subtree-mail.ts): a record spanning more than the worker's turn
//   on the lead's message says what each later turn opened on — a reply from a sub-task the
//   worker dispatched (here or in an earlier folded record: the ledger keeps them) or the
//   run's own notice — and one that claims a turn without such mail is refused whole;
// - caps: a run never calls past its allowance (it checks before each call), so a record whose
//   cost passes the allowance by more than one call is a run that ignored it: refused.
// Costs are charged whatever the decisions' fate — a model call paid is paid — once per record
// key (epoch, seq): a record rewritten after every call is charged by its growth. An ended
// record's timing is measured once per key alike (the ledger keeps the keys timed).

import { taskTurnKey, type TaskTurnRecord } from "../../records/task-turn-record.js";
import { subtreeMailRefusal } from "./subtree-mail.js";

/** The most sub-task ids a ledger keeps (the newest). */
export const MAX_KEPT_SUBTASKS = 1000;

export interface TaskLedger {
  /** The dispatch the lead trusts now; bumped when it gives up on a run. */
  epoch: number;
  /** The last turn folded (0: none). */
  folded: number;
  /** What each record key has been charged (USD). */
  charged: Record<string, number>;
  /** What the task's runs may spend in all (USD): its share of the job's cap. */
  allowanceUsd: number;
  /** The most one model call may cost (USD): the slack of a call in flight. */
  callUsd: number;
  /** Record keys whose timing was measured already (absent: none). */
  timed?: string[];
  /** Sub-tasks the worker dispatched in folded records (absent: none). */
  subtasks?: string[];
}

export interface FoldContext {
  job: number;
  task: string;
  /** Address keys the task's runs may send to (its visibility from the bus: the parent). */
  visible: ReadonlySet<string>;
  /**
   * The Actions run the lead dispatched for the ledger's epoch, when it knows it: a record of
   * that epoch written by any other run (another task's run pushing to this branch) is not
   * this task's, charged nothing and never folded.
   */
  run?: string | null;
  /** The job's tasks the lead knows: none is a sub-task of this run's (absent: none). */
  jobTasks?: ReadonlySet<string>;
}

export type Refusal =
  | "other job or task"
  | "other run"
  | "future epoch"
  | "stale epoch"
  | "routing"
  | "over allowance"
  | `subtree mail: ${string}`;

export interface FoldResult {
  ledger: TaskLedger;
  /** Ended turns whose decisions reach the bus, in sequence order. */
  folded: TaskTurnRecord[];
  /** Records whose decisions never count, each said once (by key). */
  refused: { key: string; why: Refusal }[];
  /** USD charged now (growth of every record's cost since the last fold). */
  chargedUsd: number;
  /** Sequence numbers waited for: a gap after the folded turn. */
  waitingFor: number | null;
  /** Ended turns' timings to measure now, each once by key (in the order read). */
  timed: { key: string; turnMs: number; commandMs: number }[];
}

export function totalCharged(ledger: TaskLedger): number {
  return Object.values(ledger.charged).reduce((a, b) => a + b, 0);
}

export function foldTaskRecords(
  prior: TaskLedger,
  records: readonly TaskTurnRecord[],
  ctx: FoldContext,
  /** Keys refused at an earlier fold: not said again. */
  refusedBefore: ReadonlySet<string> = new Set(),
): FoldResult {
  const ledger: TaskLedger = { ...prior, charged: { ...prior.charged } };
  const timedBefore = new Set(prior.timed ?? []);
  const timed: FoldResult["timed"] = [];
  const refused: FoldResult["refused"] = [];
  const refuse = (key: string, why: Refusal) => {
    if (!refusedBefore.has(key) && !refused.some((r) => r.key === key)) refused.push({ key, why });
  };
  let chargedUsd = 0;
  const candidates: TaskTurnRecord[] = [];
  for (const r of records) {
    const key = taskTurnKey(r);
    if (r.job !== ctx.job || r.task !== ctx.task) {
      refuse(key, "other job or task");
      continue;
    }
    if (r.epoch > ledger.epoch) {
      refuse(key, "future epoch");
      continue;
    }
    if (typeof ctx.run === "string" && r.epoch === ledger.epoch && r.run !== ctx.run) {
      refuse(key, "other run");
      continue;
    }
    // Paid by a run the lead dispatched: charged once, by its growth.
    const before = ledger.charged[key] ?? 0;
    if (r.costUsd > before) {
      ledger.charged[key] = r.costUsd;
      chargedUsd += r.costUsd - before;
    }
    // Its time, measured by the run's engine, counts once by the same key (an ended record is
    // read again at every wake), whatever its decisions' fate: the turn took that long.
    if (r.ended && r.timing !== undefined && !timedBefore.has(key)) {
      timedBefore.add(key);
      timed.push({ key, ...r.timing });
    }
    if (r.epoch < ledger.epoch) {
      if (r.ended && r.seq > ledger.folded) refuse(key, "stale epoch");
      continue;
    }
    if (r.ended) candidates.push(r);
  }
  const overAllowance = totalCharged(ledger) > ledger.allowanceUsd + ledger.callUsd;
  candidates.sort((a, b) => a.seq - b.seq);
  const folded: TaskTurnRecord[] = [];
  const dispatched = new Set(prior.subtasks ?? []);
  let waitingFor: number | null = null;
  for (const r of candidates) {
    if (r.seq <= ledger.folded) continue;
    if (r.seq !== ledger.folded + 1) {
      waitingFor = ledger.folded + 1;
      break;
    }
    const key = taskTurnKey(r);
    const untied = subtreeMailRefusal(r, dispatched, ctx.jobTasks ?? new Set());
    if (r.sends.some((m) => !ctx.visible.has(m.to))) {
      refuse(key, "routing");
    } else if (untied !== null) {
      refuse(key, `subtree mail: ${untied}`);
    } else if (overAllowance) {
      refuse(key, "over allowance");
    } else {
      folded.push(r);
      for (const id of r.subtasks ?? []) dispatched.add(id);
    }
    // A refused turn still takes its place in the sequence: the run went on after it, and
    // folding its successors on top of a turn that never counted would reorder the task.
    ledger.folded = r.seq;
  }
  if (timed.length > 0) ledger.timed = [...(prior.timed ?? []), ...timed.map((t) => t.key)];
  // Bounded: a sub-task's reply comes within a few records of its dispatch.
  if (dispatched.size > (prior.subtasks?.length ?? 0))
    ledger.subtasks = [...dispatched].slice(-MAX_KEPT_SUBTASKS);
  return { ledger, folded, refused, chargedUsd, waitingFor, timed };
}
