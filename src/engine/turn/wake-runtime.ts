// What one wake knows about the turns in flight, beside the Session's records: the response
// journal, which turns are running (the turns cap counts them before they are applied), the
// cost gate, when people's comments were last looked at, and how to start a lead an
// intervention woke while other turns run. Nothing here is a record: a crash loses it
// all, and the next wake rebuilds it from the journal and the branch.

import type { Address } from "../../protocol/address.js";
import type { Payload } from "../../protocol/bus/index.js";
import { CostGate } from "./cost-gate.js";
import type { CommandClock } from "./command-clock.js";
import type { ResponseJournal } from "./response-journal.js";
import type { JournalBranch } from "./journal-branch.js";
import type { Session } from "../job/session.js";

export interface WakeRuntime {
  /** Null until the wake opens it (`openRuntime`); a turn run outside a wake journals nothing. */
  journal: ResponseJournal | null;
  /** Where the journal outlives the runner (journal-branch.ts); null until opened. */
  journalBranch: JournalBranch | null;
  /** Turns started and not yet ended, by ticket (their start order). */
  readonly running: Map<number, string>;
  nextTicket: number;
  readonly gate: CostGate;
  /** When the forge was last asked for new comments while turns run (monotonic ms), or null. */
  lastPoll: number | null;
  /**
   * Looks for people's commands at a model-call boundary (people/poll-interventions.ts). The
   * wake that opened the session sets it: reading people sits above a turn, so the turn's
   * boundary is handed the look instead of importing it. Null: a turn looks at nobody.
   */
  poll: (() => Promise<void>) | null;
  /** Starts an instance's turn at once (an intervention woke it); null outside the loop. */
  lateJoin: ((a: Address) => void) | null;
  /** Resolves once the turns that ended on a thread are applied (turn-scheduler.ts). */
  appliedOn: ((thread: string) => Promise<void>) | null;
  /**
   * Why every running turn should stop at its next call (a withdrawal waiting to be applied
   * at the next applied turn, or a stop of the wake), or null.
   */
  stopping: string | null;
  /**
   * Stops the wake at its turns' next model calls because `by` paused the job;
   * null outside the loop.
   */
  pause: ((by: string) => void) | null;
  /**
   * Set in a task's own run (wake-task.ts): its allowance checked
   * before each model call, each charge written to the turn's record at once, and what a
   * task run cannot do (sub-tasks, questions) refused at the tool. Null in the lead's run.
   */
  taskRun: TaskRunHooks | null;
  /**
   * When the run stops cleanly (`WakeOptions.stopAt`, the engine's clock in ms), or null (a
   * local run has no time limit): `execute.runners: auto` sends a task expected to outlast it
   * to a run of its own rather than have it cut short here.
   */
  stopAtMs: number | null;
  /** The commands running in this run, for each one's time alone (made at the first). */
  commandClock: CommandClock | null;
}

export interface TaskRunHooks {
  /** Why the next model call may not start (the task's allowance is spent), or null. */
  beforeCall(): string | null;
  /** A model call was charged `costUsd`: the turn's record says so before anything else runs. */
  charged(costUsd: number): Promise<void>;
  /**
   * Why a tool the lead's run would take is refused to instance `a` in this run (undefined:
   * allowed); `pending` is what its turn queued so far.
   */
  refuses(tool: "dispatch" | "ask", a: Address, pending: readonly Payload[]): string | undefined;
}

const runtimes = new WeakMap<Session, WakeRuntime>();

export function runtimeOf(s: Session): WakeRuntime {
  let rt = runtimes.get(s);
  if (rt === undefined) {
    rt = {
      journal: null,
      journalBranch: null,
      running: new Map(),
      nextTicket: 1,
      gate: new CostGate(),
      lastPoll: null,
      poll: null,
      lateJoin: null,
      appliedOn: null,
      stopping: null,
      pause: null,
      taskRun: null,
      stopAtMs: null,
      commandClock: null,
    };
    runtimes.set(s, rt);
  }
  return rt;
}

/** Registers a turn as running; its ticket orders it among the turns running with it. */
export function startTurn(s: Session, key: string): number {
  const rt = runtimeOf(s);
  const ticket = rt.nextTicket++;
  rt.running.set(ticket, key);
  return ticket;
}

export function endTurn(s: Session, ticket: number): void {
  runtimeOf(s).running.delete(ticket);
}

/** Turns started before `ticket` and still running: counted against the turns cap first. */
export function runningBefore(s: Session, ticket: number): number {
  let n = 0;
  for (const t of runtimeOf(s).running.keys()) if (t < ticket) n++;
  return n;
}
