// A folded task turn reaches the bus as if the worker had taken it in the lead's run: the lead's
// run is the only writer of the bus, so the worker's Run is started on the message waiting in its
// mailbox ([wake]) — the one its task run took, turn for turn — and ended with the record's sends
// ([send-step]) or none ([nosend-step]), or with its question ([ask-step]) as the lead's run ends a
// turn that asked (apply-turn.ts): replies first, then the question, two reductions in one batch.
// Pure over the soup. The sends are the record's, already checked by the fold
// (fold-task-records.ts); they are checked again here as any Send is (routing locality,
// docs/protocol.md#dispatch) — a question only to the worker's own parent, one per turn — and a
// refusal changes nothing: the soup is touched only once every check passed.

import { addressKey, parseAddressKey, type Address } from "../../protocol/address.js";
import type { BusEvent, Content, Effect, Payload, Policy, Soup } from "../../protocol/bus/index.js";
import type { TaskTurnRecord } from "../../records/task-turn-record.js";

/** `message`: what the worker's Run was started on — the turn's opening, as delivered. */
export type FoldedDelivery =
  | { ok: true; events: BusEvent[]; effects: Effect[]; message: Content }
  | { ok: false; why: string };

/** What the lead's run gives a folded question: a fresh escalation id and its state's policy. */
export interface FoldedAsk {
  id: string;
  policy: Policy;
}

export function deliverFoldedTurn(
  soup: Soup,
  worker: Address,
  record: Pick<TaskTurnRecord, "sends">,
  /** The question's id and policy, when the record asks one (null: a question is refused). */
  ask: FoldedAsk | null = null,
): FoldedDelivery {
  if (soup.stateOf(worker) !== "Idle" || soup.mailbox(worker).length === 0)
    return { ok: false, why: "its worker has no message waiting in the lead's bus" };
  const payloads: Payload[] = [];
  const asks = record.sends.filter((m) => m.kind === "ask");
  if (asks.length > 1) return { ok: false, why: "a turn asks one question at most" };
  const question = asks[0];
  if (question !== undefined) {
    if (ask === null) return { ok: false, why: "a question from a task run is not folded here" };
    const parentThread = soup.parentOf(worker.thread);
    const parent = soup.instances().find((a) => a.thread === parentThread);
    if (parent === undefined || question.to !== addressKey(parent))
      return { ok: false, why: "a question goes to the worker's own parent only" };
  }
  for (const m of record.sends) {
    if (m.kind === "ask") continue;
    let to: Address;
    try {
      to = parseAddressKey(m.to);
    } catch {
      return { ok: false, why: "a send to no address" };
    }
    payloads.push({ kind: "deliver", to, content: { kind: "reply", text: m.text } });
  }
  const rejected = soup.checkAll(worker, payloads).find((r) => r !== null);
  if (rejected) return { ok: false, why: `a send the bus refuses (${rejected.reason})` };
  const woke = soup.wake(worker);
  const events = [...woke.events];
  const effects: Effect[] = [];
  if (payloads.length > 0 || question === undefined) {
    const ended = soup.endTurn(
      worker,
      payloads.length > 0 ? { rule: "send-step", payloads } : { rule: "nosend-step" },
    );
    events.push(...ended.events);
    effects.push(...ended.effects);
  }
  if (question !== undefined && ask !== null) {
    if (payloads.length > 0) {
      // Sent and asked: the Send went out above; the same instance poses its question now.
      const placed = soup.interrupt(worker.thread, { kind: "observe", text: `ask ${ask.id}` });
      events.push(...placed.events, ...soup.wake(worker).events);
    }
    const asked = soup.endTurn(worker, {
      rule: "ask-step",
      id: ask.id,
      question: { kind: "question", text: question.text },
      policy: ask.policy,
    });
    events.push(...asked.events);
    effects.push(...asked.effects);
  }
  return { ok: true, events, effects, message: woke.message };
}
