// What the log preserves of a soup (docs/protocol.md#persistence). Idle/Run/Send are transient in
// the protocol, but a Send or AskQuestion exists only after its turn's end was logged, so only a
// Run is lost in a crash: it becomes the Idle it woke from, with what it consumed back in the
// mailbox or pending as Interrupts (a crash mid-Run loses that turn, not its input).

import { addressKey } from "../address.js";
import type { RunMolecule } from "./molecules.js";
import type { Store } from "./store.js";

/** A copy of `store` with every Run rolled back to its Idle. */
export function durableProjection(store: Store): Store {
  const copy = store.clone();
  for (const bag of [...copy.states.values()]) {
    for (const m of [...bag]) if (m.kind === "Run") rollBack(copy, m);
  }
  return copy;
}

function rollBack(s: Store, run: RunMolecule): void {
  s.replaceState(run, { kind: "Idle", a: run.a });
  const key = addressKey(run.a);
  for (const consumed of run.via) {
    if (consumed.from === "interrupt") {
      s.addInterrupt({ kind: "Interrupt", thread: run.a.thread, content: consumed.content });
      continue;
    }
    // A mailbox flushed by [term-mbox] while the Run was alive takes nothing back.
    const mailbox = s.mailbox(key);
    if (mailbox !== undefined) s.returnMail(mailbox, consumed.content);
  }
}
