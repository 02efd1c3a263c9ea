// `cfa reject N --comment "…"`: a CHANGES_REQUESTED review with the comment; the lead
// revises the artifact and asks again. After the job ended (DONE or WITHDRAWN) the same
// review asks for more work: it starts a follow-up (docs/protocol.md#jobs-and-states).

import { requireGateOrEnded } from "../job-checks.js";
import { jobVerb } from "../job-verb.js";
import { UsageError } from "../usage-error.js";

export const rejectCommand = jobVerb({
  name: "reject",
  usage: `
Usage: cfa reject <N> --comment "what to change" [--inline FILE:LINE:TEXT …] [--repo DIR]
                  [--verbose] [--record FILE]

Requests changes to job N's artifact under review (a CHANGES_REQUESTED review of its pull
request with your comment), then wakes the job: the lead revises the artifact and asks you
to review it again.

After job N ended (DONE or WITHDRAWN) the review asks for more work on its pull request: a
follow-up starts on the same branch, from INTENT, with your comment and inline comments as
its request (see \`cfa followup --help\`).`,
  optionHelp: [
    ["--comment, -m TEXT", "what must change (required)"],
    [
      "--inline FILE:LINE:TEXT",
      "an inline comment on line LINE of FILE in the pull request's diff\n(repeat for more)",
    ],
  ],
  options: {
    comment: { type: "string", short: "m" },
    inline: { type: "string", multiple: true },
  },
  act(n, { values }) {
    const comment = values.comment?.trim();
    if (!comment) {
      throw new UsageError("reject", '--comment is required: say what must change (--comment "…")');
    }
    const inline = (values.inline ?? []).map(parseInline);
    return {
      action: { action: "reject", job: n, text: comment, ...(inline.length > 0 ? { inline } : {}) },
      check: requireGateOrEnded,
      followUp: true,
    };
  },
});

/** `src/a.js:12:text` → the file, the line and the comment. */
function parseInline(value: string): { path: string; line: number; text: string } {
  const match = /^([^:]+):([1-9]\d{0,6}):([\s\S]*\S[\s\S]*)$/u.exec(value.trim());
  if (match === null) {
    throw new UsageError(
      "reject",
      `--inline ${JSON.stringify(value)} is not FILE:LINE:TEXT (e.g. --inline "src/a.js:12:handle an empty list")`,
    );
  }
  return { path: match[1]!, line: Number(match[2]), text: match[3]!.trim() };
}
