// Extension of seed 000 §13, the other half of [send-block]:
//   [unblock]  Blocked(B, t, (A,t',x)) → Mailbox_A(t', [x]) ‖ Idle_A(t') ‖ Parent(t', t)
// for the oldest Blocked under t, when t is live and has fewer than `fanOutCap` live
// children. Its right-hand side is [spark]'s (§5), with §6's visibility: B sees (A, t'), A
// is initialised with (B, t); the runtime installs the instance as at any spark.

import { addressKey } from "../../address.js";
import { part, stamp, type Rule } from "./rule.js";

export const unblockRule: Rule<"unblock"> = {
  name: "unblock",
  anchor: "Blocked",
  match(store, blocked) {
    if (blocked.kind !== "Blocked") return [];
    return store.unblockable(blocked) ? [{ rule: "unblock", molecules: [blocked] }] : [];
  },
  fire(store, redex, _input, out) {
    const blocked = part(redex, 0, "Blocked");
    const { to } = blocked;
    const parent = blocked.a.thread;
    const content = stamp(blocked.content, blocked.a);
    store.removeBlocked(blocked);
    store.openInstanceThread(to.thread, parent);
    store.addParent({ kind: "Parent", child: to.thread, parent });
    store.addMailbox({ kind: "Mailbox", a: to, queue: [content] });
    store.addState({ kind: "Idle", a: to });
    store.see(addressKey(blocked.a), addressKey(to));
    store.see(addressKey(to), addressKey(blocked.a));
    out.events.push({ type: "unblock", from: blocked.a, to, parent, content });
    out.effects.push({ kind: "spark", a: to, parent, from: blocked.a, first: content });
  },
};
