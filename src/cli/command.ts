// One `cfa` verb: its usage text and its entry point (thin: parse,
// wire, call the engine, map the result to an exit code).

import type { CliIo } from "./cli-io.js";

export interface Command {
  name: string;
  /** The whole of `cfa <name> --help`. */
  usage: string;
  /** Exit code: 0 ok, 1 failure, 2 usage error (thrown as UsageError). */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/**
 * The npm package the `cfa` command ships in. The release workflow publishes it on a version
 * tag (.github/workflows/release.yml); until a release reaches the registry, `npx cfa-bot`
 * answers 404, so cfa names it only when it was itself run from npx's cache.
 */
export const PACKAGE_NAME = "cfa-bot";

/**
 * How the person invoked the command, for every command it suggests: the same words work
 * where they are. npm sets `npm_command` (`exec` under npx, `run-script` under `npm run`) and
 * `npm_package_name` (the project it runs in):
 * https://docs.npmjs.com/cli/v11/using-npm/scripts#packagejson-vars and
 * https://docs.npmjs.com/cli/v11/commands/npm-exec.
 * - cfa-bot's own checkout: `npm run cfa --` (its script runs the checkout's build at once),
 *   or `npx cfa` for someone who typed that.
 * - npx elsewhere: `npx cfa` when the bin is a project's own install (`node_modules/.bin`,
 *   as after `npm install <tarball>`), `npx cfa-bot` only when npx fetched the package into
 *   its cache (`…/_npx/<hash>/node_modules/…`): a registry install.
 * - Otherwise the bin is on the PATH (`npm link`, a global install): `cfa`.
 */
export function cliName(
  env: Record<string, string | undefined>,
  script: string = process.argv[1] ?? "",
): string {
  const inCheckout = env.npm_package_name === PACKAGE_NAME;
  if (env.npm_command === "exec") {
    if (inCheckout) return "npx cfa";
    return /[\\/]_npx[\\/]/.test(script) ? `npx ${PACKAGE_NAME}` : "npx cfa";
  }
  if ((env.npm_command === "run" || env.npm_command === "run-script") && inCheckout) {
    return "npm run cfa --";
  }
  return "cfa";
}

export function printUsage(io: CliIo, command: Command): number {
  io.stdout.write(`${command.usage.trim()}\n`);
  return 0;
}
