// A host refusal (fan-out cap, unknown task, outcome outside the state) is something the
// model can act on, so it becomes an error result, never an exception.

import type { HostResult } from "../turn-contract.js";
import { fail, ok, type ToolEnd, type ToolResult } from "./tool.js";

export function fromHost(result: HostResult, end?: ToolEnd): ToolResult {
  if (!result.ok) return fail(result.error);
  return end === undefined ? ok(result.text) : { ...ok(result.text), end };
}
