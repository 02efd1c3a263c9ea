// `cfa reject N --comment "…"`: a CHANGES_REQUESTED review with the comment; the lead
// revises the artifact and asks again.

import { requireGate } from "../act-on-job.js";
import { jobVerb } from "../job-verb.js";
import { UsageError } from "../usage-error.js";

export const rejectCommand = jobVerb({
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
  options: { comment: { type: "string", short: "m" } },
  act(n, { values }) {
    const comment = values.comment?.trim();
    if (!comment) {
      throw new UsageError("reject", '--comment is required: say what must change (--comment "…")');
    }
    return { action: { action: "reject", job: n, text: comment }, check: requireGate };
  },
});
