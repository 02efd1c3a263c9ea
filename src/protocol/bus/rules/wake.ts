// docs/protocol.md#message-soup [wake]
//   Idle_A(t) ‖ Mailbox_A(t, m:rs) → Run(A, t, m) ‖ Mailbox_A(t, rs)
// The log records it for information only: the consumption of m becomes durable at turn end
// (bounded crash-loss, docs/protocol.md#invariants), so a crash mid-Run leaves m in the mailbox.

import { addressKey } from "../../address.js";
import { part, type Rule } from "./rule.js";

export const wakeRule: Rule<"wake"> = {
  name: "wake",
  anchor: "Ready",
  match(store, idle) {
    if (idle.kind !== "Idle") return [];
    const mailbox = store.mailbox(addressKey(idle.a));
    if (mailbox === undefined || mailbox.queue.length === 0) return [];
    return [{ rule: "wake", molecules: [idle, mailbox] }];
  },
  fire(store, redex, _input, out) {
    const idle = part(redex, 0, "Idle");
    const mailbox = part(redex, 1, "Mailbox");
    const m = store.takeMail(mailbox);
    if (m === undefined) throw new Error("cfa/bus: internal: [wake] on an empty mailbox");
    store.replaceState(idle, {
      kind: "Run",
      a: idle.a,
      msg: m,
      via: [{ from: "mailbox", content: m }],
    });
    out.events.push({ type: "wake", a: idle.a, rule: "wake", content: m });
  },
};
