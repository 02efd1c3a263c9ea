// Questions the proxy escalated to the person (docs/protocol.md#escalation): each is posted —
// recorded first, then the comment (the decision before its effect) — and committed, one
// question at a time.

import { type Session, persistRecords } from "../job/session.js";
import { postOutbox } from "../job/outbox.js";
import { postToHuman, unpostedQuestions } from "./escalations.js";

/** True when anything was asked. */
export async function askPeople(s: Session): Promise<boolean> {
  let asked = false;
  for (const m of unpostedQuestions(s)) {
    await postToHuman(s, m);
    await persistRecords(s, `cfa #${s.n}: ${s.job.state} asked ${m.id}`);
    await postOutbox(s);
    await persistRecords(s, `cfa #${s.n}: posted ${m.id}`);
    asked = true;
  }
  return asked;
}
