// `cfa run "<request>"`: opens a local issue labelled cfa for the request and wakes it.

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CliError } from "../cli-error.js";
import { fsReason } from "../fs-reason.js";
import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import type { CliIo } from "../cli-io.js";
import {
  HELP_OPTION,
  parseCommandArgs,
  RECORD_OPTION,
  REPO_OPTION,
  VERBOSE_OPTION,
} from "../parse-command-args.js";
import { UsageError } from "../usage-error.js";

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  title: { type: "string" },
  file: { type: "string", short: "F" },
  ...RECORD_OPTION,
  ...VERBOSE_OPTION,
} as const;

export const runCommand: Command = {
  name: "run",
  usage: `
Usage: cfa run "<request>" [--repo DIR] [--title TEXT] [--verbose] [--record FILE]
       cfa run --file FILE …   (the request read from FILE)
       cfa run - …             (the request read from standard input)

Opens a job (a local issue labelled cfa) in the repository for <request> and wakes it: the
intent lead drafts INTENT.md and asks you to review it. The live log shows what the agents
do; the command ends when the job waits on you, with the command to type next.

Options:
  --repo DIR      the repository (default: the current folder)
  --title TEXT    the job's title (default: the request's first line)
  --file, -F FILE read the request from FILE (\`-\` for standard input), for a request
                  longer than a command line holds
  --verbose, -v   per-task lines in the log
  --record FILE   record the model's responses and your actions into FILE (a new replay
                  file); pass --record FILE to the later verbs too, then \`cfa replay FILE\`
  --help, -h      this help

Needs ANTHROPIC_API_KEY. The job's records live on the branch cfa/<N> of the repository.`,

  async run(argv, io) {
    const fromFile = argv.some((a) => a === "--file" || a === "-F" || a.startsWith("--file="));
    const parsed = parseCommandArgs(
      "run",
      argv,
      OPTIONS,
      fromFile ? { required: [], optional: ["<request>"] } : { required: ["<request>"] },
    );
    if (parsed === null) return printUsage(io, runCommand);
    const request = (await requestText(io, parsed.positionals[0], parsed.values.file)).trim();
    if (request === "") throw new UsageError("run", "<request> is empty: say what you want done");
    const title = parsed.values.title?.trim() || titleOf(request);

    const { startJob } = await import("../start-job.js");
    return startJob(io, {
      request,
      title,
      repo: parsed.values.repo,
      record: parsed.values.record,
      verbose: parsed.values.verbose === true,
    });
  },
};

/**
 * The request: the argument, or the file `--file` names, or standard input for `-` (as git
 * commit -F and gh issue create --body-file read theirs: `-` is standard input). A command
 * line holds about 128 KiB on Linux (E2BIG, "Argument list too long"), a file any size.
 */
async function requestText(
  io: CliIo,
  argument: string | undefined,
  file: string | undefined,
): Promise<string> {
  if (file !== undefined && argument !== undefined) {
    throw new UsageError("run", "give the request as an argument or with --file, not both");
  }
  const path = file ?? (argument === "-" ? "-" : undefined);
  if (path === undefined) return argument ?? "";
  if (path === "-") {
    if (io.stdin === undefined) throw new UsageError("run", "there is no standard input to read");
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString("utf8");
  }
  const full = resolve(io.cwd, path);
  try {
    return await readFile(full, "utf8");
  } catch (error) {
    throw new CliError(`cannot read the request from ${full}: ${fsReason(error)}.`);
  }
}

/** The first line of the request, cut at a word near 72 characters. */
export function titleOf(request: string): string {
  const first =
    request
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? request.trim();
  if (first.length <= 72) return first;
  const cut = first.slice(0, 72);
  const space = cut.lastIndexOf(" ");
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
