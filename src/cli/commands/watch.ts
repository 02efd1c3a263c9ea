// `cfa watch N`: the job's live log rebuilt from its records on cfa/N, so it works in
// another terminal or after the fact; `--follow` polls for new commits until the job ends
// (or Ctrl-C).

import { setTimeout as sleep } from "node:timers/promises";
import { isTerminalState } from "../../protocol/fsm.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import type { Command } from "../command.js";
import { cliName, printUsage } from "../command.js";
import { gitTry } from "../git-text.js";
import { jobRef, readJobRecords } from "../job-records.js";
import { readJobView } from "../job-view.js";
import { createLiveLog } from "../live-log.js";
import { nextStep } from "../next-step.js";
import { parseJobArgs } from "../job-args.js";
import { HELP_OPTION, REPO_OPTION, VERBOSE_OPTION } from "../parse-command-args.js";
import { repoArg } from "../resolve-repo.js";
import { renderWatch } from "../watch-render.js";
import { UsageError } from "../usage-error.js";

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  ...VERBOSE_OPTION,
  follow: { type: "boolean", short: "f" },
  interval: { type: "string" },
} as const;

export const watchCommand: Command = {
  name: "watch",
  summary: "the job's log, from its records (--follow to keep watching)",
  usage: `
Usage: cfa watch <N> [--follow] [--verbose] [--repo DIR]

Prints job N's log — who did what, when — rebuilt from its records on the branch cfa/<N>
(or origin/cfa/<N>), then what the job waits on. Works while another command runs the
job, and after the fact. A job followed up after it ended shows each round in order.

Options:
  --follow, -f      keep watching: print new lines as the job's branch moves, until the job
                    ends (Ctrl-C to stop)
  --interval SECS   how often --follow looks (default 1)
  --verbose, -v     per-task lines
  --repo DIR        the repository (default: the current folder)
  --help, -h        this help`,

  async run(argv, io) {
    const args = await parseJobArgs("watch", argv, io.cwd, OPTIONS);
    if (args === null) return printUsage(io, watchCommand);
    const interval = Number(args.values.interval ?? "1");
    if (!(interval > 0 && interval <= 3600)) {
      throw new UsageError(
        "watch",
        `--interval must be a number of seconds above 0 and at most 3600, got ${args.values.interval}`,
      );
    }
    return watch(io, {
      n: args.n,
      repoDir: args.repoDir,
      verbose: args.values.verbose === true,
      follow: args.values.follow === true,
      intervalMs: interval * 1000,
      repoArg: repoArg(args.repoDir, args.values.repo),
    });
  },
};

async function watch(
  io: CliIo,
  o: {
    n: number;
    repoDir: string;
    verbose: boolean;
    follow: boolean;
    intervalMs: number;
    repoArg: string;
  },
): Promise<number> {
  const log = createLiveLog({ verbose: o.verbose });
  const print = (lines: string[]) => {
    for (const l of lines) io.stdout.write(`${l}\n`);
  };
  // Per round (a follow-up's records count their lines from the start): the last printed.
  const printed = new Map<number, number>();
  let seenHead: string | null = null;
  for (;;) {
    const texts = await readJobRecords(o.repoDir, o.n);
    if (texts === null)
      throw new CliError(`there is no job #${o.n} in ${o.repoDir} (no branch cfa/${o.n}).`);
    seenHead = texts.head;
    const view = readJobView(texts);
    const done = view.job !== null && isTerminalState(view.job.state);
    // The rounds in order: every earlier one has ended, so all of it is printed as final.
    for (const round of texts.rounds.filter((r) => r < texts.round)) {
      if (printed.has(round)) continue;
      const earlier = await readJobRecords(o.repoDir, o.n, round);
      if (earlier === null) continue;
      const lines = renderWatch(readJobView(earlier));
      for (const line of lines) print(log.push(line));
      print(log.end());
      printed.set(round, lines.at(-1)?.seq ?? -1);
    }
    const printedSeq = printed.get(texts.round) ?? -1;
    const fresh = renderWatch(view).filter((line) => line.seq > printedSeq);
    // Following a live job, a line later records will change waits for them, with all after
    // it (as in the live log: live-records-log.ts), so each line is printed once, as final.
    const stop = o.follow && !done ? fresh.findIndex((line) => line.unsettled === true) : -1;
    for (const line of stop < 0 ? fresh : fresh.slice(0, stop)) {
      print(log.push(line));
      printed.set(texts.round, line.seq);
    }
    print(log.end());
    if (stop < 0) printed.set(texts.round, view.lines.at(-1)?.seq ?? printedSeq);
    if (!o.follow || done) {
      for (const p of view.problems) io.stderr.write(`cfa: ${p}\n`);
      io.stdout.write(
        `\n${nextStep(view, {
          cli: cliName(io.env),
          repoArg: o.repoArg,
          ...(o.repoArg ? { repoDir: o.repoDir } : {}),
        }).join("\n")}\n`,
      );
      return 0;
    }
    // Follow: wait for the branch to move (a new commit is a new turn or step).
    for (;;) {
      try {
        await sleep(o.intervalMs, undefined, io.signal ? { signal: io.signal } : {});
      } catch {
        return 0; // stopped from outside
      }
      const ref = await jobRef(o.repoDir, o.n);
      const head = ref ? (await gitTry(o.repoDir, ["rev-parse", ref]))?.trim() : null;
      if (head && head !== seenHead) break;
    }
  }
}
