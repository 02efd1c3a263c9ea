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

/** The npm package the `cfa` command ships in (`npx cfa-bot demo`). */
export const PACKAGE_NAME = "cfa-bot";

/**
 * How the person invokes the command, for suggested commands. npm sets `npm_command` (`exec`
 * under npx, `run` under `npm run`) and `npm_package_name` (the project it runs in). In
 * cfa-bot's own checkout: `npm run cfa --` (the package's script, which runs the checkout's
 * build at once), or `npx cfa` for someone who typed that; npx there installs the checkout
 * into its own cache and builds it again first (npm exec prefers the current package's own
 * bin), so it is never what cfa suggests unasked. Elsewhere under npx: `npx cfa-bot`, the
 * published package. Otherwise the bin is on the PATH (a global install): `cfa`.
 */
export function cliName(env: Record<string, string | undefined>): string {
  const inCheckout = env.npm_package_name === PACKAGE_NAME;
  if (env.npm_command === "exec") return inCheckout ? "npx cfa" : `npx ${PACKAGE_NAME}`;
  if ((env.npm_command === "run" || env.npm_command === "run-script") && inCheckout) {
    return "npm run cfa --";
  }
  return "cfa";
}

export function printUsage(io: CliIo, command: Command): number {
  io.stdout.write(`${command.usage.trim()}\n`);
  return 0;
}
