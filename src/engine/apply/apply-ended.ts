// Applying a turn that ended (turn-scheduler.ts hands them over one at a time): the wake is the job
// branch's single writer, so turns are applied one after another while the others keep running.
// Each is applied whole before anything of the next (the turn's records are committed before its
// effects: docs/protocol.md#recorded-decisions, apply-turn.ts), then what the caps, the outbox and
// the journal need after every turn.

import { addressKey } from "../../protocol/address.js";
import { isLiveState } from "../../protocol/fsm.js";
import { isModelUnavailable, type ModelUnavailableError } from "../../ports/model.js";
import { persistRecords, progress, type Session } from "../job/session.js";
import { runtimeOf } from "../turn/wake-runtime.js";
import { enforceJobCaps } from "../flow/enforce-caps.js";
import { postOutbox } from "../job/outbox.js";
import { applyTurn } from "./apply-turn.js";
import type { InstanceTurn } from "./run-instance-turn.js";
import type { EndedTurn, TurnScheduler } from "./turn-scheduler.js";

/** The model was unavailable to one of the turns: that ends the wake (api-wait.ts). */
export function unavailableIn(turns: readonly InstanceTurn[]): ModelUnavailableError | null {
  for (const t of turns) if (isModelUnavailable(t.error)) return t.error;
  return null;
}

/**
 * Applies one ended turn — unless a cascade consumed its Run meanwhile, or the job ended:
 * then nothing of it is applied (its calls stay charged). Turns the application consumed in
 * turn are stopped at once; the caps are checked, the outbox posted, and the journal forgets
 * the turn's responses once the commit that accounts them exists.
 */
export async function applyEnded(
  s: Session,
  turns: TurnScheduler,
  ended: EndedTurn,
): Promise<void> {
  const { turn } = ended;
  const key = addressKey(turn.a);
  const applies =
    ended.aborted === null && isLiveState(s.job.state) && s.soup.stateOf(turn.a) === "Run";
  try {
    if (applies) await applyTurn(s, turn);
    else progress(s, key, "DROPPED", ended.aborted ?? "its Run was consumed", true);
  } finally {
    turns.settled(key);
  }
  turns.abortConsumed();
  await enforceJobCaps(s);
  turns.abortConsumed();
  await postOutbox(s);
  await persistRecords(s, `cfa #${s.n}: posted`);
  const journal = runtimeOf(s).journal;
  if (journal === null) return;
  // Every call made so far is accounted in the commit just made: the applied (or dropped)
  // turn's responses can never be asked for again. Nothing left to run: the whole journal.
  await journal.forget([key]);
  if (turns.size === 0 && turns.runnable().length === 0) await journal.clear();
}
