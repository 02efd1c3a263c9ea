// `cfa approve N`: an APPROVED review of the job's pull request at the head of cfa/N, then
// the job wakes and moves on.

import { requireGate } from "../job-checks.js";
import { jobVerb } from "../job-verb.js";

export const approveCommand = jobVerb({
  name: "approve",
  usage: `
Usage: cfa approve <N> [--note TEXT] [--repo DIR] [--verbose] [--record FILE]

Approves job N's artifact under review — a review of the job's pull request at the latest
commit of cfa/<N>, as you would approve it on GitHub — then wakes the job: it moves to the
next phase and runs until it waits on you again.`,
  optionHelp: [
    [
      "--note TEXT",
      "a note with the approval, kept with it in the job's records\n(--comment is the same)",
    ],
  ],
  options: { comment: { type: "string" }, note: { type: "string" } },
  act(n, { values }) {
    const comment = (values.note ?? values.comment)?.trim();
    return {
      action: { action: "approve", job: n, ...(comment ? { text: comment } : {}) },
      check: requireGate,
    };
  },
});
