// Whether people withdrew the job while a wake was stopping (job/wake-stop.ts): the one look
// at people a stopped wake takes before it says whether to be woken again.

import type { MemoForge } from "../job/forge-memo.js";
import type { JobRecords, Reporter } from "../job/session.js";
import { collectHumanEvents, humanPolicy } from "./human-events.js";

/**
 * Whether people have withdrawn the job since the wake last read them (a /withdraw, the issue
 * closed, the label removed): a run cancelled by a withdrawal must not dispatch another. Read
 * only: the withdrawal is applied by the run its comment dispatched.
 */
export async function withdrawalPending(s: JobRecords & Reporter): Promise<boolean> {
  // Fresh: what the wake read before may be older than the withdrawal.
  (s.deps.forge as Partial<MemoForge>).refresh?.();
  const { events } = await collectHumanEvents(s.deps.forge, s.n, s.engine, humanPolicy(s.config));
  return events.some((e) => e.kind === "withdraw");
}
