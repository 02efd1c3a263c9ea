// answer: the proxy's [respond] (docs/protocol.md#escalation): the text goes back to the asking
// agent.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  text: boundedText(TEXT_LIMITS.answer, "an answer").describe(
    "The answer, as the person would give it.",
  ),
});

export const answerTool = hostTool({
  name: "answer",
  description:
    "Answer the question for the person you stand for. The answer goes to the agent that asked; then stop. Refused when the escalation policy requires the person to be asked first: use escalate.",
  input,
  endsTurn: true,
  call: ({ text }, host) => host.proxyAnswer(text),
});
