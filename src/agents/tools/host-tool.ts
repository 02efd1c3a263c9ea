// A tool whose whole job is one call to the host (dispatch, send, close, finish, a verdict,
// a proxy's answer): the host validates and records; its refusal (a fan-out cap, an unknown
// task, an outcome outside the state) is something the model can act on, so it becomes an
// error result, never an exception.

import type * as z from "zod";
import type { HostResult, TurnHost } from "../turn-contract.js";
import { fail, ok, type Tool, type ToolEnd, type ToolResult } from "./tool.js";
import type { ToolName } from "./tool-names.js";

export function fromHost(result: HostResult, end?: ToolEnd): ToolResult {
  if (!result.ok) return fail(result.error);
  return end === undefined ? ok(result.text) : { ...ok(result.text), end };
}

export function hostTool<S extends z.ZodType>(tool: {
  name: ToolName;
  description: string;
  input: S;
  /** True for the tools after which the agent stops: an accepted call ends the turn. */
  endsTurn?: true;
  call(input: z.output<S>, host: TurnHost): Promise<HostResult>;
}): Tool<S> {
  const { call, endsTurn, ...described } = tool;
  return {
    ...described,
    async run(input, ctx) {
      const end: ToolEnd | undefined = endsTurn ? { kind: "finished" } : undefined;
      return fromHost(await call(input, ctx.host), end);
    },
  };
}
