// What a tool is: a name, product text for the model, a zod schema of its input and a
// function over the validated input. The loop validates, checks the role and catches;
// a tool only does its one job.

import type * as z from "zod";
import type { RoleDefinition, TurnEnd, TurnHost, TurnInput } from "../turn-contract.js";
import type { ToolName } from "./tool-names.js";
import type { ClientToolSpec } from "../../ports/model.js";

export interface ToolContext {
  role: RoleDefinition;
  workspace: TurnInput["workspace"];
  host: TurnHost;
  limits: { readBytes: number };
  signal?: AbortSignal;
  /**
   * The repository's instruction files nearest a path the call touched that this conversation
   * has not been given yet, as data to append to the result ("" when none): a sub-folder's
   * AGENTS.md reaches the agent once, when it first works there (src/agents/instructions).
   */
  nearbyInstructions?(path: string, kind: "file" | "folder"): string;
}

/** How a successful turn-ending tool ends the turn. */
export type ToolEnd = Extract<TurnEnd, { kind: "asked" } | { kind: "finished" }>;

export interface ToolResult {
  text: string;
  isError: boolean;
  /** Set only by ask_question and finish when the host accepted them. */
  end?: ToolEnd;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: ToolName;
  /**
   * Set for an Anthropic-defined tool: the request names this type, and the model brings the
   * schema; `description` and `input` then only document and validate what arrives.
   */
  readonly client?: ClientToolSpec;
  /** Product text: what the tool does, when to use it, what happens after. */
  readonly description: string;
  /** Role-specific text, when the role changes what the model must know (e.g. commands). */
  describeFor?(role: RoleDefinition): string;
  readonly input: S;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

export const ok = (text: string): ToolResult => ({ text, isError: false });
export const fail = (text: string): ToolResult => ({ text, isError: true });
