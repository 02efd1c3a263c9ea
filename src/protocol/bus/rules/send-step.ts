// docs/protocol.md#message-soup [send-step]  Run(A, t, m) → Send(A, t, xs)
// The agent's logic picks xs (the only choice the rules leave open); it arrives as the input.

import { BusUsageError } from "../errors.js";
import { requireInput } from "./rule.js";
import { loneRule } from "./skeletons.js";

export const sendStepRule = loneRule("send-step", "Run", "Run", (store, run, input, out) => {
  const xs = requireInput("send-step", input, "the payloads xs");
  if (!Array.isArray(xs)) throw new BusUsageError("[send-step] input must be an array of payloads");
  const msgs = xs.map((p) =>
    p.kind === "deliver"
      ? {
          kind: "deliver" as const,
          to: { agent: p.to.agent, thread: p.to.thread },
          content: p.content,
        }
      : { kind: "terminate" as const, thread: p.thread },
  );
  store.replaceState(run, { kind: "Send", a: run.a, msgs });
  out.events.push({
    type: "turn-end",
    a: run.a,
    rule: "send-step",
    consumed: run.via,
    payloads: msgs,
  });
});
