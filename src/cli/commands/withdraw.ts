// `cfa withdraw N [reason]`: comments `/withdraw reason`; the job stops at once, every task
// is dropped unmerged (docs/protocol.md#withdrawal): WITHDRAWN.

import { requireLive } from "../job-checks.js";
import { jobVerb } from "../job-verb.js";

export const withdrawCommand = jobVerb({
  name: "withdraw",
  usage: `
Usage: cfa withdraw <N> ["<reason>"] [--repo DIR] [--verbose] [--record FILE]

Withdraws job N (a \`/withdraw\` comment on its issue): the job stops at once, every task
is stopped and its branch deleted without merging, and the job ends WITHDRAWN. Its record
stays on cfa/<N>.`,
  records: "this action",
  needs: "Needs no key: stopping a job runs no agent.",
  after: { optional: ["<reason>"] },
  act(n, { positionals }) {
    const reason = positionals[1]?.trim();
    return {
      action: { action: "withdraw", job: n, ...(reason ? { text: reason } : {}) },
      // As `gh issue close` on a closed issue: what was asked for is so, nothing changes, 0.
      check(view, hint) {
        if (view.job?.state === "WITHDRAWN") {
          return `job #${n} is WITHDRAWN already; nothing changed. Its record stays on ${view.ref}.`;
        }
        requireLive(view, hint);
      },
      needsModel: false,
    };
  },
});
