// escalate: the proxy's [escalate] (docs/protocol.md#escalation): a question for the person
// themself.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  question: boundedText(TEXT_LIMITS.question, "a question").describe(
    "A short, clear question the person can answer in one reply.",
  ),
});

export const escalateTool = hostTool({
  name: "escalate",
  description:
    "Ask the person you stand for, when you are not sure they would agree with an answer of yours. Then stop: their reply arrives as a later message, and you answer the agent from it.",
  input,
  endsTurn: true,
  call: ({ question }, host) => host.proxyEscalate(question),
});
