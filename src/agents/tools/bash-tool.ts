// bash: Anthropic's bash tool, `bash_20250124`
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool): `command`, run
// in a shell session whose folder and exported variables carry over to the next call, or
// `restart` for a fresh session ("command: required unless using restart"). Each call is one
// sandboxed command through the host, with the role's network, limits, timeout and evidence;
// the result is its exit code and output, as run_command's is.

import * as z from "zod";
import { formatCommandResult } from "./format-command-result.js";
import { ok, type Tool } from "./tool.js";
import { TEXT_LIMITS } from "./text-limits.js";

const input = z
  .object({
    command: z
      .string()
      .max(TEXT_LIMITS.argument, {
        error: `a command may be at most ${TEXT_LIMITS.argument.toLocaleString("en-US")} characters (Linux's MAX_ARG_STRLEN): put a long script in a file and run it`,
      })
      .refine((c) => !c.includes("\0"), { error: "a command cannot contain a NUL character" })
      .optional(),
    restart: z.boolean().optional(),
  })
  .refine((i) => (i.command !== undefined && i.command.trim() !== "") || i.restart === true, {
    error: "give a command to run, or restart: true for a fresh session",
  });

export const bashTool: Tool<typeof input> = {
  name: "bash",
  client: { type: "bash_20250124", name: "bash" },
  description:
    "Anthropic's bash tool: run a command line in your shell session (its folder and exported variables carry over between calls), or restart it.",
  input,
  async run({ command, restart }, ctx) {
    const call = {
      ...(command !== undefined && command.trim() !== "" ? { command } : {}),
      ...(restart === true ? { restart: true } : {}),
    };
    const outcome = await ctx.host.runShell(call);
    if (outcome.result === null) return ok("tool has been restarted.");
    const parts = [
      ...(restart === true ? ["tool has been restarted."] : []),
      formatCommandResult(outcome.result),
      ...outcome.notes,
    ];
    if (outcome.cwd !== ".") {
      const near = ctx.nearbyInstructions?.(outcome.cwd, "folder") ?? "";
      if (near !== "") parts.push(near);
    }
    return { text: parts.join("\n"), isError: outcome.result.timedOut };
  },
};
