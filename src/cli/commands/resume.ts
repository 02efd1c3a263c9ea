// `cfa resume N`: releases a paused job (a `/resume` comment); on a job that is not
// paused it wakes the job without doing anything else, so work a stopped command
// (Ctrl-C) or a crash left waiting carries on (the agents' mail is durable, so a new wake picks
// it up: docs/protocol.md#persistence).

import { requireLive } from "../job-checks.js";
import { jobVerb } from "../job-verb.js";

export const resumeCommand = jobVerb({
  name: "resume",
  usage: `
Usage: cfa resume <N> [--repo DIR] [--verbose] [--record FILE]

Releases job N if it is paused (a \`/resume\` comment on its issue), then wakes it and runs
it until it waits on you again or ends. On a job that is not paused it changes nothing
first: for a job whose last command was stopped (Ctrl-C) or crashed while agents had work.`,
  records: "this wake and the model's responses",
  act: (n) => ({ action: { action: "resume", job: n }, check: requireLive }),
});
