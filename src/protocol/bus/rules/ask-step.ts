// docs/protocol.md#escalation [ask-step]  Run(A, t, m) → AskQuestion(A, t, x, π)
// The agent picks the escalation id, the question x and the state's policy π. The id names
// the thread escalation:<id>, so it must be new: it is reserved here.

import { ESCALATION_POLICIES, escalationThread } from "../molecules.js";
import { BusUsageError } from "../errors.js";
import { requireInput } from "./rule.js";
import { loneRule } from "./skeletons.js";

export const askStepRule = loneRule("ask-step", "Run", "Run", (store, run, input, out) => {
  const { id, question, policy } = requireInput("ask-step", input, "{ id, question, policy }");
  const thread = escalationThread(id);
  if (id === "" || store.threads.has(thread)) {
    throw new BusUsageError(`[ask-step] escalation id "${id}" is taken; use a fresh id`);
  }
  if (!(ESCALATION_POLICIES as readonly string[]).includes(policy)) {
    throw new BusUsageError(`[ask-step] unknown policy "${String(policy)}"`);
  }
  store.openEscalationThread(thread, id);
  store.replaceState(run, { kind: "AskQuestion", a: run.a, id, question, policy });
  out.events.push({
    type: "turn-end",
    a: run.a,
    rule: "ask-step",
    consumed: run.via,
    ask: { id, question, policy },
  });
});
