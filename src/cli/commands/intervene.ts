// `cfa intervene N "text"`: comments `/intervene text`; the current lead gets it at its
// next model call if it is working, or is woken on it (seed 000 §8: preemption).

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
import { UsageError } from "../usage-error.js";

const OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  ...VERBOSE_OPTION,
  ...RECORD_OPTION,
} as const;

export const interveneCommand: Command = {
  name: "intervene",
  summary: 'redirect the current lead at its next model call: cfa intervene 1 "…"',
  usage: `
Usage: cfa intervene <N> "<text>" [--repo DIR] [--verbose] [--record FILE]

Delivers <text> to job N's current lead (an \`/intervene\` comment on its issue), then wakes
the job: a lead at work sees it in its next model call, an idle one is woken on it, ahead of
its other messages. If a wake of the job is already running (\`cfa run\` in another
terminal), that wake picks the comment up. Intervening redirects; it does not stop anything
(that is \`cfa withdraw\`).

Options:
  --repo DIR      the repository (default: the current folder)
  --verbose, -v   per-task lines in the log
  --record FILE   append this action and the model's responses to a replay file
  --help, -h      this help

Needs ANTHROPIC_API_KEY.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("intervene", argv, OPTIONS, { required: ["<N>", "<text>"] });
    if (parsed === null) return printUsage(io, interveneCommand);
    const n = parseJobNumber("intervene", parsed.positionals[0] ?? "");
    const text = parsed.positionals[1]?.trim() ?? "";
    if (text === "")
      throw new UsageError("intervene", "<text> is empty: say what the lead should know");
    return actOnJob(io, {
      n,
      repo: parsed.values.repo,
      verbose: parsed.values.verbose === true,
      record: parsed.values.record,
      action: { action: "intervene", job: n, text },
      check: requireLive,
    });
  },
};
