// seed 000 §9 [term-final]  Terminate(t) → ε   when no other t-tagged molecule remains

import { part, type Rule } from "./rule.js";
import { untagged } from "./tagged.js";

export const termFinalRule: Rule<"term-final"> = {
  name: "term-final",
  anchor: "Terminate",
  match(store, term) {
    if (term.kind !== "Terminate" || !untagged(store, term.thread)) return [];
    return [{ rule: "term-final", molecules: [term] }];
  },
  fire(store, redex, _input, out) {
    const term = part(redex, 0, "Terminate");
    store.removeTerminate(term);
    out.events.push({ type: "term-final", thread: term.thread });
  },
};
