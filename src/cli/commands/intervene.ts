// `cfa intervene N "text"`: comments `/intervene text`; the current lead gets it at its
// next model call if it is working, or is woken on it (it preempts: docs/protocol.md#intervention).

import { requireLive } from "../job-checks.js";
import { jobVerb, requiredText } from "../job-verb.js";

export const interveneCommand = jobVerb({
  name: "intervene",
  usage: `
Usage: cfa intervene <N> "<text>" [--repo DIR] [--verbose] [--record FILE]

Delivers <text> to job N's current lead (an \`/intervene\` comment on its issue), then wakes
the job: a lead at work sees it in its next model call, an idle one is woken on it, ahead of
its other messages. If a wake of the job is already running (\`cfa run\` in another
terminal), that wake picks the comment up. Intervening redirects; it does not stop anything
(that is \`cfa withdraw\`).`,
  after: { required: ["<text>"] },
  act(n, { positionals }) {
    const text = requiredText("intervene", positionals[1], "say what the lead should know");
    return { action: { action: "intervene", job: n, text }, check: requireLive };
  },
});
