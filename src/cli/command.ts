// One `cfa` verb: its one-line summary, its usage text, and its entry point (thin: parse,
// wire, call the engine, map the result to an exit code).

import type { CliIo } from "./cli-io.js";

export interface Command {
  name: string;
  /** One line for `cfa --help`. */
  summary: string;
  /** The whole of `cfa <name> --help`. */
  usage: string;
  /** Exit code: 0 ok, 1 failure, 2 usage error (thrown as UsageError). */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** How the person invokes the command, for suggested commands: `npx cfa` under npx. */
export function cliName(env: Record<string, string | undefined>): string {
  return env.npm_command === "exec" ? "npx cfa" : "cfa";
}

export function printUsage(io: CliIo, command: Command): number {
  io.stdout.write(`${command.usage.trim()}\n`);
  return 0;
}
