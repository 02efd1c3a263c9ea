// `cfa reject N --comment "…"`: a CHANGES_REQUESTED review with the comment; the lead
// revises the artifact and asks again.

import { actOnJob, requireGate } from "../act-on-job.js";
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
import { UsageError } from "../usage-error.js";

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  comment: { type: "string", short: "m" },
  ...VERBOSE_OPTION,
  ...RECORD_OPTION,
} as const;

export const rejectCommand: Command = {
  name: "reject",
  summary: 'request changes to the artifact under review: cfa reject 1 --comment "…"',
  usage: `
Usage: cfa reject <N> --comment "what to change" [--repo DIR] [--verbose] [--record FILE]

Requests changes to job N's artifact under review (a CHANGES_REQUESTED review of its pull
request with your comment), then wakes the job: the lead revises the artifact and asks you
to review it again.

Options:
  --comment, -m TEXT  what must change (required)
  --repo DIR          the repository (default: the current folder)
  --verbose, -v       per-task lines in the log
  --record FILE       append this action and the model's responses to a replay file
  --help, -h          this help

Needs ANTHROPIC_API_KEY.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("reject", argv, OPTIONS, { required: ["<N>"] });
    if (parsed === null) return printUsage(io, rejectCommand);
    const n = parseJobNumber("reject", parsed.positionals[0] ?? "");
    const comment = parsed.values.comment?.trim();
    if (!comment) {
      throw new UsageError("reject", '--comment is required: say what must change (--comment "…")');
    }
    return actOnJob(io, {
      n,
      repo: parsed.values.repo,
      verbose: parsed.values.verbose === true,
      record: parsed.values.record,
      action: { action: "reject", job: n, text: comment },
      check: requireGate,
    });
  },
};
