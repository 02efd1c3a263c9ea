// Intervention is preemption (docs/protocol.md#intervention). The person's `/intervene` is an
// Interrupt on the job-level thread (the orchestrator's): it spans states, so it reaches
// whichever lead is current. The orchestrator, woken on it ([wake-int]), places the
// intervention as an Interrupt on that lead's thread — never as mail behind what the lead has
// not read yet:
// - an idle lead is woken directly on it ([wake-int]), ahead of its mailbox; in the middle of
//   while other turns run it starts at once, without waiting for a slot (turn-scheduler.ts launch);
// - a running lead's Run abandons what it was on for it ([interrupt]) at its next model call
//   (run-instance-turn.ts preemptingMessage): the next request carries it, with the turn's
//   context.

import type { Address } from "../../protocol/address.js";
import { addressKey } from "../../protocol/address.js";
import type { Content } from "../../protocol/bus/index.js";
import { isLiveState } from "../../protocol/fsm.js";
import { currentLead } from "../job/instances.js";
import { ensureLead } from "./leads.js";
import { asData } from "../../comments/sanitize.js";
import { orchestrate } from "./orchestrator.js";
import { progress, type Session, type Conversation } from "../job/session.js";
import { runtimeOf } from "../turn/wake-runtime.js";

export async function relayIntervention(
  s: Session,
  lead: Address,
  event: { by: string; text: string },
): Promise<void> {
  const data = { by: event.by };
  await relay(
    s,
    lead,
    { kind: "intervention", text: event.text, data },
    {
      kind: "intervention",
      text: asData(`intervention by @${event.by}`, event.text),
      data,
    },
  );
  const state = s.soup.stateOf(lead);
  progress(
    s,
    "HUMAN",
    "INTERVENE",
    `@${event.by} → ${addressKey(lead)} (${state === "Run" ? "at its next model call" : "woken on it"})`,
  );
}

/** Interventions waiting on `thread` that its Run never reached (it ended first). */
export function pendingInterventions(s: Conversation, thread: string): Content[] {
  return s.soup
    .molecules()
    .flatMap((m) =>
      m.kind === "Interrupt" && m.thread === thread && m.content.kind === "intervention"
        ? [m.content]
        : [],
    );
}

/**
 * A lead that ended its phase between the intervention's relay and its next model call
 * never read it, and its thread closed with the phase (taking the Interrupt, [term-int]).
 * The person meant whichever lead is current: the orchestrator relays it to the next one.
 */
export async function carryInterventions(s: Session, missed: readonly Content[]): Promise<void> {
  if (missed.length === 0 || !isLiveState(s.job.state)) return;
  await ensureLead(s);
  const lead = currentLead(s);
  if (lead === null) return;
  for (const content of missed) {
    await relay(s, lead, { kind: "intervention", text: "carried to the next lead" }, content);
    progress(s, "HUMAN", "INTERVENE", `carried over to ${addressKey(lead)}`);
  }
}

async function relay(s: Session, lead: Address, observed: Content, content: Content) {
  await orchestrate(s, observed, [], [{ thread: lead.thread, content }]);
  // An idle lead starts at once, whatever else is running (turn-scheduler.ts launch).
  if (s.soup.stateOf(lead) === "Idle") runtimeOf(s).lateJoin?.(lead);
}
