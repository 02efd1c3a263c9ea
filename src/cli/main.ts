// The `cfa` command (issue 4 §4). Thin (docs/architecture.md): find the verb, let
// it parse, wire and call the engine, and map what went wrong to a message and an exit code: 0
// ok, 1 failure, 2 usage error.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closest } from "../config/edit-distance.js";
import { packageRoot } from "../skills/package-root.js";
import { CliError } from "./cli-error.js";
import { processIo, type CliIo } from "./cli-io.js";
import { cliName, type Command } from "./command.js";
import { answerCommand } from "./commands/answer.js";
import { approveCommand } from "./commands/approve.js";
import { demoCommand } from "./commands/demo.js";
import { inspectCommand } from "./commands/inspect.js";
import { interveneCommand } from "./commands/intervene.js";
import { followupCommand } from "./commands/followup.js";
import { rejectCommand } from "./commands/reject.js";
import { replayCommand } from "./commands/replay.js";
import { pauseCommand } from "./commands/pause.js";
import { resumeCommand } from "./commands/resume.js";
import { runCommand } from "./commands/run.js";
import { showCommand } from "./commands/show.js";
import { watchCommand } from "./commands/watch.js";
import { withdrawCommand } from "./commands/withdraw.js";
import { processRedactor, registerEnvSecrets } from "../secrets/index.js";
import { redactingIo } from "./redacting-io.js";
import { UsageError } from "./usage-error.js";

export const COMMANDS: readonly Command[] = [
  runCommand,
  approveCommand,
  rejectCommand,
  answerCommand,
  withdrawCommand,
  interveneCommand,
  followupCommand,
  pauseCommand,
  resumeCommand,
  watchCommand,
  inspectCommand,
  showCommand,
  replayCommand,
  demoCommand,
];

export function usage(cli = "cfa"): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "cfa — run CfA jobs on a local repository: INTENT → PLAN → EXECUTE, with Claude agents",
    "doing the work and you approving each phase's artifact.",
    "",
    "Usage: cfa <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    `Start with \`${cli} demo\` (no key needed). A real run needs ANTHROPIC_API_KEY.`,
    "Every command takes --help. Jobs live in the repository: branch cfa/<N>, records under",
    ".cfa/jobs/<N>/ on it.",
  ].join("\n");
}

export async function main(argv: readonly string[], given: CliIo = processIo()): Promise<number> {
  // The keys in this environment are cut from everything cfa prints, posts or commits.
  registerEnvSecrets(given.env);
  const io = redactingIo(given, processRedactor());
  const [verb, ...rest] = argv;
  try {
    const cli = cliName(io.env);
    if (verb === undefined) {
      io.stderr.write(`${usage(cli)}\n`);
      return 2;
    }
    if (verb === "--help" || verb === "-h" || verb === "help") {
      if (rest[0] === undefined) {
        io.stdout.write(`${usage(cli)}\n`);
        return 0;
      }
      io.stdout.write(`${known(rest[0]).usage.trim()}\n`);
      return 0;
    }
    // -v too (as npm, node and most CLIs): at the top level it cannot mean --verbose, which
    // belongs to the commands.
    if (verb === "--version" || verb === "-v" || verb === "-V" || verb === "version") {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    return await known(verb).run(rest, io);
  } catch (error) {
    return report(error, io);
  }
}

/** The command named `name`; a usage error naming the nearest one when there is none. */
function known(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const near = closest(
    name,
    COMMANDS.map((c) => c.name),
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

function version(): string {
  try {
    const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
      version?: string;
    };
    return `cfa ${manifest.version ?? "unknown"}`;
  } catch {
    return "cfa (version unknown)";
  }
}
