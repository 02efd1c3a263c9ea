// ask_question: AskQuestion (docs/protocol.md#escalation). The host validates and files it; the
// turn ends ([ask-step]) and the answer — possibly `[WITHDRAW]\n<reason>` — comes back as the
// result of this very call at the start of the next turn.

import * as z from "zod";
import { QUESTION_KINDS } from "../turn-contract.js";
import { fromHost } from "./host-tool.js";
import type { Tool } from "./tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z
  .strictObject({
    kind: z
      .enum(QUESTION_KINDS)
      .describe('"question" for open questions; "gate" to ask for approval of an artifact.'),
    text: boundedText(TEXT_LIMITS.question, "a question").describe(
      "The question, or what the reviewer should look at.",
    ),
    artifact: z
      .string()
      .min(1)
      .optional()
      .describe("For a gate: the artifact under review, relative to your workspace root."),
  })
  .refine((value) => value.kind !== "gate" || value.artifact !== undefined, {
    path: ["artifact"],
    message: "a gate needs the artifact under review",
  });

export const askQuestionTool: Tool<typeof input> = {
  name: "ask_question",
  description:
    "Ask the person (or their proxy) a question, or ask them to approve an artifact (kind gate). Call it alone, as the only tool call in your response. Your turn ends; the answer arrives as your next message. An answer that starts with [WITHDRAW] means the person abandons the job.",
  input,
  async run({ kind, text, artifact }, ctx) {
    const question = artifact === undefined ? { kind, text } : { kind, text, artifact };
    return fromHost(await ctx.host.ask(question), { kind: "asked", question });
  },
};
