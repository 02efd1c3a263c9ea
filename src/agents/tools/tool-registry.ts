// Every tool by name, and a role's tool surface as the Model port's ToolSpec[].

import * as z from "zod";
import type { ToolSpec } from "../../ports/model.js";
import { RoleError } from "../roles/role-error.js";
import type { RoleDefinition } from "../turn-contract.js";
import { answerTool } from "./answer-tool.js";
import { bashTool } from "./bash-tool.js";
import { editorTool } from "./editor-tool.js";
import { askQuestionTool } from "./ask-question-tool.js";
import { closeTool } from "./close-tool.js";
import { dispatchTool } from "./dispatch-tool.js";
import { editFileTool } from "./edit-file-tool.js";
import { escalateTool } from "./escalate-tool.js";
import { finishTool } from "./finish-tool.js";
import { listFilesTool } from "./list-files-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { replyTool } from "./reply-tool.js";
import { runCommandTool } from "./run-command-tool.js";
import { searchFilesTool } from "./search-files-tool.js";
import { sendTool } from "./send-tool.js";
import type { Tool } from "./tool.js";
import { isToolName, type ToolName } from "./tool-names.js";
import { verdictTool } from "./verdict-tool.js";
import { withdrawTool } from "./withdraw-tool.js";
import { writeFileTool } from "./write-file-tool.js";

export const TOOLS: { readonly [N in ToolName]: Tool } = {
  str_replace_based_edit_tool: editorTool,
  bash: bashTool,
  read_file: readFileTool,
  write_file: writeFileTool,
  edit_file: editFileTool,
  list_files: listFilesTool,
  search_files: searchFilesTool,
  run_command: runCommandTool,
  dispatch: dispatchTool,
  send: sendTool,
  reply: replyTool,
  close: closeTool,
  ask_question: askQuestionTool,
  finish: finishTool,
  verdict: verdictTool,
  answer: answerTool,
  escalate: escalateTool,
  withdraw: withdrawTool,
};

/** The tool a role may call under `name`, or undefined: the only way to reach a tool. */
export function roleTool(role: RoleDefinition, name: string): Tool | undefined {
  return isToolName(name) && role.tools.includes(name) ? TOOLS[name] : undefined;
}

/**
 * Each tool's input schema as JSON Schema, converted once per process: a tool's zod schema
 * never changes, and converting it at every turn of every agent was ~30 ms of the demo's
 * main thread (--cpu-prof). Each spec gets its own copy.
 */
const inputSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

function inputSchemaOf(input: z.ZodType): Record<string, unknown> {
  let schema = inputSchemas.get(input);
  if (schema === undefined) {
    // The model fills the input, so its schema is the input side (defaults optional).
    const { $schema: _dialect, ...rest } = z.toJSONSchema(input, { io: "input" });
    schema = rest;
    inputSchemas.set(input, schema);
  }
  return structuredClone(schema);
}

export function toolSpec(tool: Tool, role: RoleDefinition): ToolSpec {
  // An Anthropic-defined tool is sent as its type: its schema is built into the model.
  if (tool.client !== undefined) return { ...tool.client };
  const schema = inputSchemaOf(tool.input);
  return {
    name: tool.name,
    description: tool.describeFor?.(role) ?? tool.description,
    input_schema: schema,
  };
}

/** The role's tools, in the role file's order (stable across turns, so the prefix caches). */
export function toolSpecs(role: RoleDefinition): ToolSpec[] {
  return role.tools.map((name) => {
    const tool = roleTool(role, name);
    if (tool === undefined) {
      throw new RoleError(`role ${role.name}`, `names unknown tool "${name}"`);
    }
    return toolSpec(tool, role);
  });
}
