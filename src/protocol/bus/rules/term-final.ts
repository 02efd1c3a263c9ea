// docs/protocol.md#withdrawal [term-final]
//   Terminate(t) → ε   when no other t-tagged molecule remains

import { untagged } from "./tagged.js";
import { loneRule } from "./skeletons.js";

export const termFinalRule = loneRule(
  "term-final",
  "Terminate",
  "Terminate",
  (store, term, _input, out) => {
    store.removeTerminate(term);
    out.events.push({ type: "term-final", thread: term.thread });
  },
  (store, term) => untagged(store, term.thread),
);
