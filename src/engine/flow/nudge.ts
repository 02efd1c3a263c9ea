// PENDING is free (docs/protocol.md#jobs-and-states): when nothing can run and nobody is asked, the
// current lead ended its turn without finishing. The orchestrator nudges it — a PENDING
// turn, not a state-level failure, so the retry budget is untouched — and counts the nudge
// against its own bound (config `nudges`), whose breach is a FAILURE that names it.

import { addressKey, type Address } from "../../protocol/address.js";
import { isLiveState } from "../../protocol/fsm.js";
import { recordNudge } from "../../protocol/failure.js";
import { recover } from "./orchestrator.js";
import { now, progress, type Session } from "../job/session.js";
import { failJob } from "./fail-state.js";

export async function nudgeLead(s: Session, lead: Address): Promise<void> {
  if (!isLiveState(s.job.state)) return;
  const key = addressKey(lead);
  const reason = `${key} stopped without finishing, asking, or waiting on a task`;
  const before = s.job;
  const counted = recordNudge(s.job, { at: now(s), by: "orchestrator", reason }, s.config.nudges);
  if (counted.exhausted) {
    s.job = before;
    await failJob(s, counted.job.history.at(-1)!.reason, "nudges");
    return;
  }
  s.job = counted.job;
  progress(s, key, "NUDGE", `${s.job.nudges} of ${s.config.nudges}`);
  await recover(
    s,
    lead.thread,
    `You ended your turn without finishing the phase, asking a question, or waiting on a task. Continue: ask, ask for review (gate), or finish. (Nudge ${s.job.nudges} of ${s.config.nudges} in a row; these do not spend the retry budget.)`,
  );
}
