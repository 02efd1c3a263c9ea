// `cfa pause N [reason]`: comments `/pause reason`; a running command's wake stops
// at its agents' next model calls, the turns in flight kept to be redone, and nothing runs
// until `cfa resume N`.

import { requireLive } from "../job-checks.js";
import { CliError } from "../cli-error.js";
import { jobVerb } from "../job-verb.js";

export const pauseCommand = jobVerb({
  name: "pause",
  usage: `
Usage: cfa pause <N> ["<reason>"] [--repo DIR] [--verbose] [--record FILE]

Pauses job N (a \`/pause\` comment on its issue): a command running the job stops at its
agents' next model calls — the turns in flight are kept and redone on resume, their paid
calls not paid again — and nothing runs until \`cfa resume <N>\`. Answers, reviews and
interventions given meanwhile are recorded and act on resume; \`cfa withdraw\` still works.`,
  records: "this action",
  needs: "Needs no key: pausing a job runs no agent.",
  after: { optional: ["<reason>"] },
  act(n, { positionals }) {
    const reason = positionals[1]?.trim();
    return {
      action: { action: "pause", job: n, ...(reason ? { text: reason } : {}) },
      check(view, hint) {
        requireLive(view, hint);
        const p = view.engine?.paused;
        if (p !== undefined) {
          throw new CliError(
            `job #${n} is paused already (by @${p.by} since ${p.since}); ${hint("resume")} releases it.`,
          );
        }
      },
      needsModel: false,
    };
  },
});
