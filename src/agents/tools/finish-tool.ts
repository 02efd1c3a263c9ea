// finish: the skill's terminal (docs/protocol.md#skill-contract): the host writes the outcome
// record and refuses an outcome outside the state's edges. FAILURE is the orchestrator's alone.

import * as z from "zod";
import { ACTIONS, ORCHESTRATOR_ACTIONS, type Action } from "../../protocol/fsm.js";
import { hostTool } from "./host-tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const SKILL_OUTCOMES = ACTIONS.filter(
  (action) => !(ORCHESTRATOR_ACTIONS as readonly Action[]).includes(action),
) as [Action, ...Action[]];

const input = z.strictObject({
  outcome: z
    .enum(SKILL_OUTCOMES)
    .describe("One of the outcomes your phase permits (your instructions list them)."),
  reason: boundedText(TEXT_LIMITS.reason, "a reason").describe(
    "Why, in a few sentences a person reading the job's history will understand.",
  ),
});

export const finishTool = hostTool({
  name: "finish",
  description:
    "End your phase with an outcome and a reason. Call it alone, as the only tool call in your response, and only when the phase is really over: your turn ends and the job moves on. An outcome your phase does not permit is refused.",
  input,
  endsTurn: true,
  call: ({ outcome, reason }, host) => host.finish({ outcome, reason }),
});
