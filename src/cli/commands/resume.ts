// `cfa resume N`: wakes the job without doing anything else, so work a stopped command
// (Ctrl-C) or a crash left waiting carries on (seed 002's `resume`; seed 000 §11: the
// agents' mail is durable, so a new wake picks it up).

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

export const resumeCommand: Command = {
  name: "resume",
  summary: "wake the job again after a stopped command, without doing anything else",
  usage: `
Usage: cfa resume <N> [--repo DIR] [--verbose] [--record FILE]

Wakes job N and runs it until it waits on you again or ends, without changing anything
first: for a job whose last command was stopped (Ctrl-C) or crashed while agents had work.

Options:
  --repo DIR      the repository (default: the current folder)
  --verbose, -v   per-task lines in the log
  --record FILE   append this wake and the model's responses to a replay file
  --help, -h      this help

Needs ANTHROPIC_API_KEY.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("resume", argv, OPTIONS, { required: ["<N>"] });
    if (parsed === null) return printUsage(io, resumeCommand);
    const n = parseJobNumber("resume", parsed.positionals[0] ?? "");
    return actOnJob(io, {
      n,
      repo: parsed.values.repo,
      verbose: parsed.values.verbose === true,
      record: parsed.values.record,
      action: { action: "resume", job: n },
      check: requireLive,
    });
  },
};
