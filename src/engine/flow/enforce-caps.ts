// The job's caps (turns, backtracks, cost), checked after every turn and every proxy's run:
// a breached cap fails the job, naming the cap, so that someone looks
// (docs/protocol.md#recorded-decisions).

import { isLiveState } from "../../protocol/fsm.js";
import { describeBreach, enforceCaps, type Caps } from "../../protocol/failure.js";
import { now, type Session } from "../job/session.js";
import { failJob } from "./fail-state.js";

export async function enforceJobCaps(s: Session): Promise<void> {
  if (!isLiveState(s.job.state)) return;
  const caps: Caps = s.config.caps;
  const { breach } = enforceCaps(s.job, caps, { at: now(s), by: "orchestrator" });
  if (!breach) return;
  // A breached cap fails the job, never ends it as a success, and names the cap.
  s.notes.push(describeBreach(breach));
  await failJob(s, describeBreach(breach), breach.cap);
}
