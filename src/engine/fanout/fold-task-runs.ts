// The lead's fold of every task in a run of its own, at a wake: for each
// open task the job's state holds a ledger for, the task branch as this run fetched it is read
// (task-turn-files.ts), folded against the ledger (fold-task-branch.ts), and each folded turn
// delivered to the bus as the worker's own (deliver-folded-turn.ts), in order. The caller
// appends the events, charges `chargedUsd`, keeps the ledgers and says the refusals, all in
// the lead's run: the only writer of the job branch and the bus.

import { addressKey, type Address } from "../../protocol/address.js";
import type { BusEvent, Effect, Policy, Soup } from "../../protocol/bus/index.js";
import type { EngineState, TaskLedgerRecord } from "../../records/engine-state.js";
import { taskTurnKey, type TaskTurnRecord } from "../../records/task-turn-record.js";
import { deliverFoldedTurn, type FoldedAsk } from "./deliver-folded-turn.js";
import { foldTaskBranch } from "./fold-task-branch.js";
import type { RunGit } from "./leased-refs.js";
import { readTaskTurnRecords } from "./task-turn-files.js";
import { mailTurnOpening } from "./subtree-mail.js";
import type { TurnOpening } from "./task-transcript-take.js";

export interface TaskRunFold {
  task: string;
  /** The commit the last delivered turn ended on: the worker's transcript through it. */
  transcriptAt: string | null;
  /**
   * The texts of the messages the delivered turns through `transcriptAt` were started on, in
   * order, the worker's later turns' subtree mail among them: each turn the lead takes of the
   * transcript must open on its own.
   */
  transcriptOpens: TurnOpening[];
  /** Ended turns' timings, each for the job's measures once. */
  timed: { turnMs: number; commandMs: number }[];
  ledger: TaskLedgerRecord;
  events: BusEvent[];
  effects: Effect[];
  chargedUsd: number;
  /** Refusals to say now (each once across wakes). */
  say: { what: string; why: string }[];
  /** The commit the last folded turn ended on, when it said the task is done. */
  doneAt: string | null;
  /**
   * Questions the worker's folded turns posed, in the order their ids were given: the caller
   * opens each escalation (`escalation-opened`) in this order, so each takes the id here.
   */
  asked: { id: string; caller: string; text: string; toolUseId?: string }[];
}

/** The escalation ids the fold gives questions: the job's next ones, in folding order. */
export interface AskIds {
  /** The id the next question takes. */
  peek(): string;
  /** That id is taken. */
  take(): void;
  /** The policy of the state the questions are asked in. */
  policy: Policy;
}

export async function foldTaskRuns(
  git: RunGit,
  job: number,
  engine: EngineState,
  soup: Soup,
  /** Without it (a caller that cannot open escalations), a question is refused. */
  askIds: AskIds | null = null,
): Promise<TaskRunFold[]> {
  const out: TaskRunFold[] = [];
  for (const [task, prior] of Object.entries(engine.fanout?.tasks ?? {})) {
    const meta = engine.tasks[task];
    if (meta?.status !== "open") continue;
    const head = await branchHead(git, meta.branch);
    if (head === null) continue;
    const worker: Address = { agent: "worker", thread: meta.thread };
    const parent = parentOf(soup, worker);
    const files = await readTaskTurnRecords(git, head);
    const fold = foldTaskBranch(prior, files, {
      job,
      task,
      visible: new Set(parent === null ? [] : [addressKey(parent)]),
      run: prior.runId,
      jobTasks: new Set(Object.keys(engine.tasks)),
    });
    const result: TaskRunFold = {
      task,
      transcriptAt: null,
      transcriptOpens: [],
      timed: fold.timed,
      ledger: fold.ledger,
      events: [],
      effects: [],
      chargedUsd: fold.chargedUsd,
      say: fold.say,
      doneAt: null,
      asked: [],
    };
    const opens: TurnOpening[] = [];
    for (const turn of fold.folded) {
      const opened = deliver(soup, worker, turn, result, askIds);
      if (opened === null) continue;
      // The worker's later turns of the record, on its subtree's mail in its run: the lead
      // never saw it, but the fold checked the record's word for each (subtree-mail.ts), and
      // each must open on it.
      opens.push(opened, ...(turn.mail ?? []).map(mailTurnOpening));
      if (turn.done) result.doneAt = turn.head;
      if (turn.head !== null) {
        result.transcriptAt = turn.head;
        result.transcriptOpens = [...opens];
      }
    }
    out.push(result);
  }
  return out;
}

function deliver(
  soup: Soup,
  worker: Address,
  turn: TaskTurnRecord,
  result: TaskRunFold,
  askIds: AskIds | null,
): string | null {
  const question = turn.sends.find((m) => m.kind === "ask");
  const ask: FoldedAsk | null =
    question !== undefined && askIds !== null ? { id: askIds.peek(), policy: askIds.policy } : null;
  const d = deliverFoldedTurn(soup, worker, turn, ask);
  if (d.ok && ask !== null && question !== undefined) {
    // Taken only for a question the bus accepted: a refused one leaves no gap in the ids.
    askIds?.take();
    result.asked.push({
      id: ask.id,
      caller: addressKey(worker),
      text: question.text,
      ...(question.toolUseId !== undefined ? { toolUseId: question.toolUseId } : {}),
    });
  }
  // Folded but not deliverable: its place in the sequence is taken all the same (the run went
  // on after it), and the lead hears why once.
  if (!d.ok) {
    result.say.push({ what: taskTurnKey(turn), why: d.why });
    return null;
  }
  result.events.push(...d.events);
  result.effects.push(...d.effects);
  return d.message.text;
}

/** The instance on the thread that dispatched the worker's: the one it may send to. */
function parentOf(soup: Soup, worker: Address): Address | null {
  const thread = soup.parentOf(worker.thread);
  if (thread === null) return null;
  return soup.instances().find((a) => a.thread === thread) ?? null;
}

async function branchHead(git: RunGit, branch: string): Promise<string | null> {
  try {
    const sha = (
      await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`])
    ).trim();
    return /^[0-9a-f]{40}$/.test(sha) ? sha : null;
  } catch {
    return null;
  }
}
