// One tool call from the model, run the only way a call can run: the role must have the
// tool (docs/protocol.md#workspaces), the input must pass the tool's schema, and whatever goes
// wrong — a BoundaryError, a refused command, a host refusal, a bug — comes back to the model as an
// error result. Only an abort propagates (the turn is being cancelled), and the model being
// unavailable (a verifier inside `close`) or the disk being full: an infrastructure fault ends the
// wake with the job live; it is never the agent's to handle.

import { isModelUnavailable, type ToolUseBlock } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import { describeIssues } from "./describe-issues.js";
import { fail, type ToolContext, type ToolResult } from "./tool.js";
import { roleTool } from "./tool-registry.js";

export async function runToolCall(call: ToolUseBlock, ctx: ToolContext): Promise<ToolResult> {
  const tool = roleTool(ctx.role, call.name);
  if (tool === undefined) {
    return fail(
      `cfa/tools: ${JSON.stringify(call.name)} is not one of your tools; the ${ctx.role.name} role has: ${ctx.role.tools.join(", ")}`,
    );
  }
  const parsed = tool.input.safeParse(call.input);
  if (!parsed.success) {
    return fail(
      `cfa/tools: invalid input for ${tool.name}: ${describeIssues(parsed.error.issues)}`,
    );
  }
  try {
    return await tool.run(parsed.data, ctx);
  } catch (error) {
    if (ctx.signal?.aborted || isModelUnavailable(error) || isDiskFull(error)) throw error;
    return fail(errorText(tool.name, error));
  }
}

function errorText(tool: string, error: unknown): string {
  if (error instanceof Error) {
    // Our named errors already say `cfa/<component>: what was refused and why`.
    if (error.message.startsWith("cfa/")) return error.message;
    return `cfa/tools: ${tool} failed: ${error.name}: ${error.message}`;
  }
  return `cfa/tools: ${tool} failed: ${String(error)}`;
}
