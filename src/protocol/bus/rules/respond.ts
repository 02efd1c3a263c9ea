// docs/protocol.md#escalation [respond]
//   Proxy(t, x, π, h) ‖ Mailbox_A(t, as) → Mailbox_A(t, as ++ [ans])   when π ≠ always OR h = post-human
// The answer may be `[WITHDRAW]\n<reason>`: the effect says so, the caller decides.

import { addressKey } from "../../address.js";
import { parseWithdrawAnswer } from "../withdraw-answer.js";
import { part, requireInput, type Rule } from "./rule.js";

export const respondRule: Rule<"respond"> = {
  name: "respond",
  anchor: "Escalation",
  match(store, proxy) {
    if (proxy.kind !== "Proxy") return [];
    if (proxy.policy === "always" && proxy.h !== "post-human") return [];
    const mailbox = store.mailbox(addressKey(proxy.caller));
    return mailbox === undefined ? [] : [{ rule: "respond", molecules: [proxy, mailbox] }];
  },
  fire(store, redex, input, out) {
    const proxy = part(redex, 0, "Proxy");
    const mailbox = part(redex, 1, "Mailbox");
    const answer = requireInput("respond", input, "the answer");
    store.removeEscalation(proxy);
    store.appendMail(mailbox, answer);
    out.events.push({ type: "respond", id: proxy.id, answer });
    out.effects.push({
      kind: "answered",
      id: proxy.id,
      caller: proxy.caller,
      answer,
      withdraw: parseWithdrawAnswer(answer.text),
    });
  },
};
