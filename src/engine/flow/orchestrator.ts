// The orchestrator as an agent (seed 000 §5 "tier-specific behavior"): it lives on the job
// thread, observes disk and the forge, and Sends like any other instance — sparking each
// state's lead, closing a state's thread at its end, relaying interventions. It is woken by
// an Interrupt on the job thread carrying what it observed ([wake-int]), so every move is a
// reduction of the rules and lands in the log as one batch.

import type { Address } from "../../protocol/address.js";
import type { Content, Payload, StepResult } from "../../protocol/bus/index.js";
import { append, ORCHESTRATOR, type Session } from "../job/session.js";

export async function orchestrate(
  s: Session,
  observed: Content,
  payloads: Payload[],
  /** Interrupts it places on other threads (seed 000 §8: "the orchestrator or the human"). */
  interrupts: { thread: string; content: Content }[] = [],
): Promise<StepResult> {
  const placed = s.soup.interrupt(ORCHESTRATOR.thread, observed);
  const woke = s.soup.wake(ORCHESTRATOR);
  const ended = s.soup.endTurn(
    ORCHESTRATOR,
    payloads.length > 0 ? { rule: "send-step", payloads } : { rule: "nosend-step" },
  );
  const redirects = interrupts.map((i) => s.soup.interrupt(i.thread, i.content));
  const step: StepResult = {
    events: [
      ...placed.events,
      ...woke.events,
      ...ended.events,
      ...redirects.flatMap((r) => r.events),
    ],
    effects: [...placed.effects, ...woke.effects, ...ended.effects],
  };
  await append(s, step.events);
  return step;
}

/**
 * Seed 000 §11 "Recovery": a failed Run "surfaces as a Send into the failing instance's
 * mailbox" — the orchestrator observes the failure and sends; the message joins the mail
 * behind whatever the instance has not read yet, and replaces nothing (issue 11 point 1,
 * issue 9 point 6). The orchestrator may address any live instance of its job: it is the
 * root that observes the whole soup (seed 000 §5; the routing extension in
 * src/protocol/bus/orchestrator-reach.ts). `to` is an instance, or a thread whose instance
 * is meant.
 */
export async function recover(s: Session, to: Address | string, text: string): Promise<void> {
  const thread = typeof to === "string" ? to : to.thread;
  if (s.soup.isTerminated(thread)) return;
  const target = typeof to === "string" ? s.soup.instances().find((a) => a.thread === thread) : to;
  if (target === undefined) return;
  await orchestrate(s, { kind: "observe", text: `failure on ${thread}` }, [
    { kind: "deliver", to: target, content: { kind: "recovery", text } },
  ]);
}
