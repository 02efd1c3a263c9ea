// docs/protocol.md#withdrawal [term-mbox]  Terminate(t) ‖ Mailbox_A(t, q) → Terminate(t)
// In-flight mail is flushed.

import { mailboxesOn } from "./tagged.js";
import { terminateRule } from "./skeletons.js";

export const termMboxRule = terminateRule(
  "term-mbox",
  mailboxesOn,
  (store, mailbox, _term, out) => {
    store.removeMailbox(mailbox);
    out.events.push({ type: "term-mbox", a: mailbox.a });
  },
);
