// A folded task turn reaches the bus as if the worker had taken it in the lead's run (issue 15
// point 6): the lead's run is the only writer of the bus, so the worker's Run is started on the
// message waiting in its mailbox ([wake], seed 000 §5) — the one its task run took, turn for
// turn — and ended with the record's sends ([send-step]) or none ([nosend-step]). Pure over
// the soup. The sends are the record's, already checked by the fold (fold-task-records.ts);
// they are checked again here as any Send is (seed 000 §6), and a refusal changes nothing:
// the soup is touched only once every check passed.

import { parseAddressKey, type Address } from "../../protocol/address.js";
import type { BusEvent, Effect, Payload, Soup } from "../../protocol/bus/index.js";
import type { TaskTurnRecord } from "../../records/task-turn-record.js";

export type FoldedDelivery =
  { ok: true; events: BusEvent[]; effects: Effect[] } | { ok: false; why: string };

export function deliverFoldedTurn(
  soup: Soup,
  worker: Address,
  record: Pick<TaskTurnRecord, "sends">,
): FoldedDelivery {
  if (soup.stateOf(worker) !== "Idle" || soup.mailbox(worker).length === 0)
    return { ok: false, why: "its worker has no message waiting in the lead's bus" };
  const payloads: Payload[] = [];
  for (const m of record.sends) {
    // A question goes to people through the lead's escalations: not a task run's to pose yet.
    if (m.kind === "ask") return { ok: false, why: "a question from a task run is not folded" };
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
  const ended = soup.endTurn(
    worker,
    payloads.length > 0 ? { rule: "send-step", payloads } : { rule: "nosend-step" },
  );
  return { ok: true, events: [...woke.events, ...ended.events], effects: ended.effects };
}
