// `cfa replay <file>`: re-runs the engine over a recorded job in a fresh repository, with every
// model response played from the file (cache-only: docs/protocol.md#recorded-decisions) — no model,
// no network, no key.

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CliError } from "../cli-error.js";
import { fsReason } from "../fs-reason.js";
import type { Command } from "../command.js";
import { cliName, printUsage } from "../command.js";
import { HELP_OPTION, parseCommandArgs, VERBOSE_OPTION } from "../parse-command-args.js";
import { ESCALATION_ID } from "../../comments/escalation-id.js";
import { UsageError } from "../usage-error.js";

const OPTIONS = {
  ...HELP_OPTION,
  dir: { type: "string" },
  until: { type: "string" },
  ...VERBOSE_OPTION,
} as const;

export const replayCommand: Command = {
  name: "replay",
  usage: `
Usage: cfa replay <file> [--dir DIR] [--until qN] [--verbose]

Re-runs the engine over a recording (a replay file, as \`cfa run --record FILE\` writes) in a
fresh repository: the recorded files, the request opened as job #1, then each of your
recorded actions in order, every model response played from the file. No model is called
and no key is needed. A request the recording does not expect stops the replay: it
diverged.

Options:
  --dir DIR       build the repository there (an empty or new folder; default: a new
                  temporary folder, kept so you can look at it)
  --until qN      stop when gate qN (an id the log shows: "ASSERT q4") waits on you, as a
                  live job stops there; then \`cfa approve 1 --repo <dir>/repo\` (or reject)
                  carries it on with your key
  --verbose, -v   per-task lines in the log
  --help, -h      this help`,

  async run(argv, io) {
    const parsed = parseCommandArgs("replay", argv, OPTIONS, { required: ["<file>"] });
    if (parsed === null) return printUsage(io, replayCommand);
    const [{ parseReplayFile }, { reportReplay }, { runReplay }] = await Promise.all([
      import("../replay-file.js"),
      import("../report-replay.js"),
      import("../run-replay.js"),
    ]);
    const until = parsed.values.until?.trim();
    if (until !== undefined && !ESCALATION_ID.test(until)) {
      throw new UsageError(
        "replay",
        `--until must be a gate id such as q1 (the log shows it: "ASSERT q1"), got ${JSON.stringify(until)}`,
      );
    }
    const path = resolve(io.cwd, parsed.positionals[0] ?? "");
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      throw new CliError(`cannot read ${path}: ${fsReason(error)}.`);
    }
    const file = parseReplayFile(text, path);
    const run = await runReplay(io, file, {
      source: path,
      ...(parsed.values.dir !== undefined ? { dir: resolve(io.cwd, parsed.values.dir) } : {}),
      verbose: parsed.values.verbose === true,
      ...(until !== undefined ? { until } : {}),
      onAction: (line) => io.stdout.write(`${line}\n`),
    });
    const { code } = await reportReplay(io, run, cliName(io.env));
    io.stdout.write(`\nThe replayed repository: ${run.repoDir}\n`);
    return code;
  },
};
