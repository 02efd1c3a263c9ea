// The orchestrator is an agent, under the rules every agent obeys (docs/protocol.md#message-soup):
// it lives on the job thread, observes disk and the forge, and Sends like any other instance —
// sparking each state's lead, closing a state's thread at its end, relaying interventions. It is
// woken by an Interrupt on the job thread carrying what it observed ([wake-int]), so every move is
// a reduction of the rules and lands in the log as one batch.

import type { Address } from "../../protocol/address.js";
import type { Content, Payload, StepResult } from "../../protocol/bus/index.js";
import { append, ORCHESTRATOR, type BusLog, type Conversation } from "../job/session.js";

export async function orchestrate(
  s: Conversation & BusLog,
  observed: Content,
  payloads: Payload[],
  /** Interrupts it places on other threads (a person's intervention, relayed). */
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
 * Recovery (docs/protocol.md#persistence): a failed Run becomes mail to the failing instance
 * — the orchestrator observes the failure and sends; the message joins the mail behind
 * whatever the instance has not read yet, and replaces nothing (the instance must still see
 * the message it was working on). The orchestrator may address any live instance of its job:
 * it is the root that observes the whole soup (the routing extension in
 * src/protocol/bus/orchestrator-reach.ts). `to` is an instance, or a thread whose instance
 * is meant.
 */
export async function recover(
  s: Conversation & BusLog,
  to: Address | string,
  text: string,
): Promise<void> {
  const thread = typeof to === "string" ? to : to.thread;
  if (s.soup.isTerminated(thread)) return;
  const target = typeof to === "string" ? s.soup.instances().find((a) => a.thread === thread) : to;
  if (target === undefined) return;
  await orchestrate(s, { kind: "observe", text: `failure on ${thread}` }, [
    { kind: "deliver", to: target, content: { kind: "recovery", text } },
  ]);
}
