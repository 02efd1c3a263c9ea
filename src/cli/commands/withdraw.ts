// `cfa withdraw N [reason]`: comments `/withdraw reason`; the job stops at once, every task
// is dropped unmerged (seed 000 §9): WITHDRAWN.

import { actOnJob, requireLive } from "../act-on-job.js";
import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import {
  HELP_OPTION,
  parseCommandArgs,
  parseJobNumber,
  RECORD_OPTION,
  REPO_OPTION,
  VERBOSE_OPTION,
} from "../parse-command-args.js";

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  ...VERBOSE_OPTION,
  ...RECORD_OPTION,
} as const;

export const withdrawCommand: Command = {
  name: "withdraw",
  summary: "stop the job: every task dropped unmerged, the job WITHDRAWN",
  usage: `
Usage: cfa withdraw <N> ["<reason>"] [--repo DIR] [--verbose] [--record FILE]

Withdraws job N (a \`/withdraw\` comment on its issue): the job stops at once, every task
is stopped and its branch deleted without merging, and the job ends WITHDRAWN. Its record
stays on cfa/<N>.

Options:
  --repo DIR      the repository (default: the current folder)
  --verbose, -v   per-task lines in the log
  --record FILE   append this action to a replay file
  --help, -h      this help

Needs no key: stopping a job runs no agent.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("withdraw", argv, OPTIONS, {
      required: ["<N>"],
      optional: ["<reason>"],
    });
    if (parsed === null) return printUsage(io, withdrawCommand);
    const n = parseJobNumber("withdraw", parsed.positionals[0] ?? "");
    const reason = parsed.positionals[1]?.trim();
    return actOnJob(io, {
      n,
      repo: parsed.values.repo,
      verbose: parsed.values.verbose === true,
      record: parsed.values.record,
      action: { action: "withdraw", job: n, ...(reason ? { text: reason } : {}) },
      check: requireLive,
      needsModel: false,
    });
  },
};
