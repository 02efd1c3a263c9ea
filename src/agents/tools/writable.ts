// Roles that only read (the proxy on a clone of the caller's workspace,
// docs/protocol.md#escalation; the verifier, which changes nothing) get a read-only workspace:
// write tools are refused before they touch the disk.

import type { ToolContext } from "./tool.js";
import { fail, type ToolResult } from "./tool.js";

export function refuseIfReadOnly(ctx: ToolContext): ToolResult | undefined {
  if (!ctx.workspace.readOnly) return undefined;
  return fail(
    `cfa/tools: this workspace is read-only for the ${ctx.role.name} role; nothing was written`,
  );
}
