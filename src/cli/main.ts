// The `cfa` command. Thin (docs/architecture.md): find the verb, let
// it parse, wire and call the engine, and map what went wrong to a message and an exit code: 0
// ok, 1 failure, 2 usage error.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closest } from "../config/edit-distance.js";
import { CliError } from "./cli-error.js";
import { processIo, type CliIo } from "./cli-io.js";
import { cliName } from "./command.js";
import { UsageError } from "./usage-error.js";
import { VERBS, type Verb } from "./verbs.js";

// `cfa --help` and `cfa <verb> --help` load this list and, for a verb's help, that verb's
// module: nothing a verb does not use (verbs.ts; `npm run bench -- cli`).
export const COMMANDS: readonly Verb[] = VERBS;

export function usage(cli = "cfa"): string {
  const width = Math.max(...VERBS.map((c) => c.name.length));
  return [
    "cfa — run CfA jobs on a local repository: INTENT → PLAN → EXECUTE, with Claude agents",
    "doing the work and you approving each phase's artifact.",
    "",
    "Usage: cfa <command> [options]",
    "",
    "Commands:",
    ...VERBS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Start with \`${cli} demo\` (no key needed). A real run needs ANTHROPIC_API_KEY.`,
    "Every command takes --help. Jobs live in the repository: branch cfa/<N>, records under",
    ".cfa/jobs/<N>/ on it.",
  ].join("\n");
}

export async function main(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    const cli = cliName(given.env);
    if (verb === undefined) {
      given.stderr.write(`${usage(cli)}\n`);
      return 2;
    }
    // Help prints fixed text, no secret: it needs neither the redactor nor a verb's work.
    if (verb === "--help" || verb === "-h" || verb === "help") {
      if (rest[0] === undefined) {
        given.stdout.write(`${usage(cli)}\n`);
        return 0;
      }
      given.stdout.write(`${(await known(rest[0]).load()).usage.trim()}\n`);
      return 0;
    }
    // -v too (as npm, node and most CLIs): at the top level it cannot mean --verbose, which
    // belongs to the commands.
    if (verb === "--version" || verb === "-v" || verb === "-V" || verb === "version") {
      given.stdout.write(`${await version()}\n`);
      return 0;
    }
    const command = await known(verb).load();
    const options = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
    if (options.includes("--help") || options.includes("-h")) {
      given.stdout.write(`${command.usage.trim()}\n`);
      return 0;
    }
  } catch (error) {
    return report(error, await redacted(given));
  }
  const io = await redacted(given);
  try {
    return await (await known(verb).load()).run(rest, io);
  } catch (error) {
    return report(error, io);
  }
}

/** The keys in this environment are cut from everything cfa prints, posts or commits. */
async function redacted(given: CliIo): Promise<CliIo> {
  const [{ processRedactor, registerEnvSecrets }, { redactingIo }] = await Promise.all([
    import("../secrets/index.js"),
    import("./redacting-io.js"),
  ]);
  registerEnvSecrets(given.env);
  return redactingIo(given, processRedactor());
}

/** The verb named `name`; a usage error naming the nearest one when there is none. */
function known(name: string): Verb {
  const command = VERBS.find((c) => c.name === name);
  if (command) return command;
  const near = closest(
    name,
    VERBS.map((c) => c.name),
  );
  throw new UsageError(
    null,
    `unknown command ${JSON.stringify(name)}${near ? `; did you mean "${near}"?` : ""}`,
  );
}

function report(error: unknown, io: CliIo): number {
  const say = (text: string) => io.stderr.write(`${text}\n`);
  if (error instanceof UsageError) {
    const who = error.command === null ? "cfa" : `cfa ${error.command}`;
    say(`${who}: ${error.message}`);
    say(`Run \`${who} --help\` for usage.`);
    return 2;
  }
  if (error instanceof CliError) {
    say(`cfa: ${error.message}`);
    return 1;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  say(`cfa: ${e.name === "Error" ? "" : `${e.name}: `}${e.message}`);
  if (io.env.CFA_DEBUG) say(e.stack ?? "");
  else say("(set CFA_DEBUG=1 to see where it happened)");
  return 1;
}

async function version(): Promise<string> {
  const { packageRoot } = await import("../skills/package-root.js");
  try {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
      version?: string;
    };
    return `cfa ${manifest.version ?? "unknown"}`;
  } catch {
    return "cfa (version unknown)";
  }
}
