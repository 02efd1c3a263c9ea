// `cfa approve N`: an APPROVED review of the job's pull request at the head of cfa/N, then
// the job wakes and moves on.

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

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  comment: { type: "string" },
  ...VERBOSE_OPTION,
  ...RECORD_OPTION,
} as const;

export const approveCommand: Command = {
  name: "approve",
  summary: "approve the artifact under review (INTENT.md, PLAN.md or WORK_SUMMARY.md)",
  usage: `
Usage: cfa approve <N> [--comment TEXT] [--repo DIR] [--verbose] [--record FILE]

Approves job N's artifact under review — a review of the job's pull request at the latest
commit of cfa/<N>, as you would approve it on GitHub — then wakes the job: it moves to the
next phase and runs until it waits on you again.

Options:
  --comment TEXT  a note with the approval
  --repo DIR      the repository (default: the current folder)
  --verbose, -v   per-task lines in the log
  --record FILE   append this action and the model's responses to a replay file
  --help, -h      this help

Needs ANTHROPIC_API_KEY.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("approve", argv, OPTIONS, { required: ["<N>"] });
    if (parsed === null) return printUsage(io, approveCommand);
    const n = parseJobNumber("approve", parsed.positionals[0] ?? "");
    const comment = parsed.values.comment?.trim();
    return actOnJob(io, {
      n,
      repo: parsed.values.repo,
      verbose: parsed.values.verbose === true,
      record: parsed.values.record,
      action: { action: "approve", job: n, ...(comment ? { text: comment } : {}) },
      check: requireGate,
    });
  },
};
