// `cfa run "<request>"`: opens a local issue labelled cfa for the request and wakes it.

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CliError } from "../cli-error.js";
import { fsReason } from "../fs-reason.js";
import type { Command } from "../command.js";
import { cliName, printUsage } from "../command.js";
import { parseConfig } from "../../config/index.js";
import type { CliIo } from "../cli-io.js";
import { openLocalSession } from "../local-session.js";
import { configureOf, modelFromEnv, noKeyMessage } from "../no-key.js";
import type { CfaConfig } from "../../config/index.js";
import {
  HELP_OPTION,
  parseCommandArgs,
  RECORD_OPTION,
  REPO_OPTION,
  VERBOSE_OPTION,
} from "../parse-command-args.js";
import { personLogin } from "../person.js";
import { recordInto, refuseExisting, type Recorder } from "../recorder.js";
import { emptyRecording, REPLAY_VERSION } from "../replay-file.js";
import { repoArg, resolveRepo } from "../resolve-repo.js";
import { snapshotFiles } from "../snapshot-files.js";
import { stderrLogger } from "../local-session.js";
import { wakeAndReport } from "../wake-and-report.js";
import { UsageError } from "../usage-error.js";
import { countOf } from "../count-of.js";

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
  summary: 'open a job for a request and start it: cfa run "add a --json flag"',
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

    const logger = stderrLogger(io);
    const inner = modelFromEnv(io, logger);
    if (inner === null) {
      io.stderr.write(`${noKeyMessage(cliName(io.env))}\n`);
      return 1;
    }
    const repoDir = await resolveRepo(io.cwd, parsed.values.repo);
    const record =
      parsed.values.record === undefined ? undefined : resolve(io.cwd, parsed.values.record);
    if (record !== undefined) refuseExisting(record);
    const person = await personLogin(repoDir, io.env);

    let recorder: Recorder | null = null;
    if (record !== undefined) {
      const snapshot = await snapshotFiles(repoDir);
      if (snapshot.skipped.length > 0) {
        io.stderr.write(
          `cfa: the replay file leaves out ${countOf(snapshot.skipped.length, "large or binary file")}: ${snapshot.skipped.slice(0, 5).join(", ")}${snapshot.skipped.length > 5 ? ", …" : ""}\n`,
        );
      }
      recorder = recordInto(
        record,
        {
          version: REPLAY_VERSION,
          request: { title, body: request },
          person,
          files: snapshot.files,
          ...(snapshot.config !== null ? { config: snapshot.config } : {}),
          recording: emptyRecording(),
          people: [],
        },
        inner,
      );
    }
    return start(io, {
      repoDir,
      person,
      title,
      request,
      verbose: parsed.values.verbose === true,
      recorder,
      model: recorder?.model ?? inner,
      repoGiven: parsed.values.repo,
      configure: configureOf(inner),
    });
  },
};

async function start(
  io: CliIo,
  o: {
    repoDir: string;
    person: string;
    title: string;
    request: string;
    verbose: boolean;
    recorder: Recorder | null;
    model: NonNullable<ReturnType<typeof modelFromEnv>>;
    repoGiven: string | undefined;
    configure?: ((config: CfaConfig) => void) | undefined;
  },
): Promise<number> {
  const session = await openLocalSession(io, {
    repoDir: o.repoDir,
    model: o.model,
    person: o.person,
    verbose: o.verbose,
    env: io.env,
    configure: o.configure,
    ...(io.clock ? { clock: io.clock } : {}),
  });
  try {
    const parsedConfig = parseConfig(await session.forge.readConfig());
    const label = parsedConfig.ok ? parsedConfig.config.label : "cfa";
    const n = await session.forge.openIssue({
      title: o.title,
      body: o.request,
      labels: [label],
      author: { login: o.person, type: "User" },
    });
    io.stdout.write(`Opened job #${n} in ${o.repoDir}: "${o.title}"\n`);
    return await wakeAndReport(
      io,
      session,
      n,
      {
        cli: cliName(io.env),
        repoArg: repoArg(o.repoDir, o.repoGiven),
        ...(o.repoGiven !== undefined ? { repoDir: o.repoDir } : {}),
      },
      io.signal,
    );
  } finally {
    await o.recorder?.save();
  }
}

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
