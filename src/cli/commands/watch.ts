// `cfa watch N`: the job's live log rebuilt from its records on cfa/N, so it works in
// another terminal or after the fact; `--follow` polls for new commits until the job ends
// (or Ctrl-C).

import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import { parseJobArgs } from "../job-args.js";
import { HELP_OPTION, REPO_OPTION, VERBOSE_OPTION } from "../parse-command-args.js";
import { repoArg } from "../resolve-repo.js";
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
  usage: `
Usage: cfa watch <N> [--follow] [--verbose] [--repo DIR]

Prints job N's log — who did what, when — rebuilt from its records on the branch cfa/<N>
(or origin/cfa/<N>), then what the job waits on. Works while another command runs the
job, and after the fact.

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
    const { watchJob } = await import("../watch-job.js");
    return watchJob(io, {
      n: args.n,
      repoDir: args.repoDir,
      verbose: args.values.verbose === true,
      follow: args.values.follow === true,
      intervalMs: interval * 1000,
      repoArg: repoArg(args.repoDir, args.values.repo),
    });
  },
};
