// The orchestrator as an agent (seed 000 §5 "tier-specific behavior"): it lives on the job
// thread, observes disk and the forge, and Sends like any other instance — sparking each
// state's lead, closing a state's thread at its end, relaying interventions. It is woken by
// an Interrupt on the job thread carrying what it observed ([wake-int]), so every move is a
// reduction of the rules and lands in the log as one batch.

import type { Content, Payload, StepResult } from "../protocol/bus/index.js";
import { append, ORCHESTRATOR, type Session } from "./session.js";

export async function orchestrate(
  s: Session,
  observed: Content,
  payloads: Payload[],
): Promise<StepResult> {
  const placed = s.soup.interrupt(ORCHESTRATOR.thread, observed);
  const woke = s.soup.wake(ORCHESTRATOR);
  const ended = s.soup.endTurn(
    ORCHESTRATOR,
    payloads.length > 0 ? { rule: "send-step", payloads } : { rule: "nosend-step" },
  );
  const step: StepResult = {
    events: [...placed.events, ...woke.events, ...ended.events],
    effects: [...placed.effects, ...woke.effects, ...ended.effects],
  };
  await append(s, step.events);
  return step;
}

/** Places a recovery message straight on an instance's thread (seed 000 §11 "Recovery"). */
export async function recover(s: Session, thread: string, text: string): Promise<void> {
  if (s.soup.isTerminated(thread)) return;
  const step = s.soup.interrupt(thread, { kind: "recovery", text });
  await append(s, step.events);
}
