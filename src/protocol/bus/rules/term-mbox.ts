// seed 000 §9 [term-mbox]  Terminate(t) ‖ Mailbox_A(t, q) → Terminate(t)
// In-flight mail is flushed.

import { part, type Rule } from "./rule.js";
import { mailboxesOn } from "./tagged.js";

export const termMboxRule: Rule<"term-mbox"> = {
  name: "term-mbox",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate") return [];
    return mailboxesOn(store, term.thread).map((m) => ({
      rule: "term-mbox" as const,
      molecules: [term, m],
    }));
  },
  fire(store, redex, _input, out) {
    const mailbox = part(redex, 1, "Mailbox");
    store.removeMailbox(mailbox);
    out.events.push({ type: "term-mbox", a: mailbox.a });
  },
};
