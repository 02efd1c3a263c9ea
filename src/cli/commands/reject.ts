// `cfa reject N --comment "…"`: a CHANGES_REQUESTED review with the comment; the lead
// revises the artifact and asks again.

import { requireGate } from "../job-checks.js";
import { jobVerb } from "../job-verb.js";
import { UsageError } from "../usage-error.js";

export const rejectCommand = jobVerb({
  name: "reject",
  usage: `
Usage: cfa reject <N> --comment "what to change" [--repo DIR] [--verbose] [--record FILE]

Requests changes to job N's artifact under review (a CHANGES_REQUESTED review of its pull
request with your comment), then wakes the job: the lead revises the artifact and asks you
to review it again.`,
  optionHelp: [["--comment, -m TEXT", "what must change (required)"]],
  options: { comment: { type: "string", short: "m" } },
  act(n, { values }) {
    const comment = values.comment?.trim();
    if (!comment) {
      throw new UsageError("reject", '--comment is required: say what must change (--comment "…")');
    }
    return { action: { action: "reject", job: n, text: comment }, check: requireGate };
  },
});
