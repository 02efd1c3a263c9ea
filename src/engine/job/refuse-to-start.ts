// Whether a wake may start job `n` at all: only for an open issue carrying the label.

import type { CfaConfig } from "../../config/index.js";
import type { EngineDeps } from "./engine-deps.js";
import { jobStarted } from "./session.js";

/**
 * A job starts only for an open issue carrying the label (the label is how a job is asked for); a
 * wake for any other issue creates nothing — no branch, no comment — rather than starting a job
 * only to withdraw it because the label is missing. A started job is never refused here: its label
 * removed or issue closed is a withdraw, read with the other events.
 */
export async function refuseToStart(
  n: number,
  deps: EngineDeps,
  config: CfaConfig,
): Promise<{ note: string; waitingOn: string } | null> {
  if (await jobStarted(n, deps)) return null;
  const issue = await deps.forge.getIssue(n);
  const waiting = `an open issue labelled \`${config.label}\``;
  if (issue.state !== "open")
    return { note: `issue #${n} is closed: no job starts`, waitingOn: waiting };
  if (!issue.labels.includes(config.label)) {
    return {
      note: `issue #${n} does not carry the \`${config.label}\` label: no job starts`,
      waitingOn: waiting,
    };
  }
  return null;
}
