// run_command: one program of the role's allowlist, no shell, through the host (which
// runs it in the sandbox with a reduced environment and time and output limits).

import * as z from "zod";
import { checkCommand } from "../commands/check-command.js";
import { networkLine } from "../commands/network-line.js";
import type { RoleDefinition } from "../turn-contract.js";
import { formatCommandResult } from "./format-command-result.js";
import { type Tool } from "./tool.js";
import { boundedList, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  argv: boundedList(
    z.string().max(TEXT_LIMITS.argument, {
      error: `an argument may be at most ${TEXT_LIMITS.argument.toLocaleString("en-US")} characters (Linux's MAX_ARG_STRLEN): put long input in a file`,
    }),
    TEXT_LIMITS.arguments,
    "arguments",
  )
    .min(1)
    .describe(
      'The program and its arguments, e.g. ["git", "status"]. No shell: no pipes, globs or $VARS.',
    ),
});

const DESCRIPTION =
  "Run a program in your workspace (the working folder) and get its exit code, stdout and stderr. It runs sandboxed: only the workspace is writable, there is a time limit and an output limit.";

export const runCommandTool: Tool<typeof input> = {
  name: "run_command",
  description: DESCRIPTION,
  describeFor(role: RoleDefinition) {
    const allowed =
      role.commands.length > 0
        ? `Allowed programs: ${role.commands.join(", ")}.`
        : "This role may not run any program.";
    return `${DESCRIPTION} ${allowed}${networkLine(role.network)}`;
  },
  input,
  async run({ argv }, ctx) {
    // Refused here as well as in the host: the role's allowlist is part of its tool
    // surface (docs/protocol.md#workspaces), whatever the host was built with.
    checkCommand(argv, ctx.role.commands);
    const result = await ctx.host.runCommand(argv);
    return { text: formatCommandResult(result), isError: result.timedOut };
  },
};
