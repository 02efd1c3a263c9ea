// The one comment a failed worker run leaves on the job's issue: what went
// wrong, with every secret redacted, shown as inert text, and where the log is. Keyed by
// the run and attempt so a re-run of the same attempt never posts it twice.

import { withHiddenBlock, type HiddenBlock } from "./hidden-block.js";
import { clip } from "../secrets/index.js";

export const WORKER_FAILURE_KIND = "worker-failure";
const MAX_REASON = 1500;

export interface FailureComment {
  job: number;
  /** Already redacted. */
  reason: string;
  runUrl: string | null;
  runKey: string;
}

export function failureComment(input: FailureComment): string {
  let reason = input.reason.trim() || "an error without a message";
  if (reason.length > MAX_REASON) reason = `${clip(reason, MAX_REASON, "a comment")}…`;
  // A fence longer than any backtick run in the text keeps it from ending early, and the
  // hidden-block markers are broken so the text cannot forge the bot's own block.
  reason = reason.replaceAll("<!--", "< !--").replaceAll("-->", "-- >");
  const fence = "`".repeat(Math.max(3, ...(reason.match(/`+/g) ?? []).map((r) => r.length + 1)));
  const log = input.runUrl === null ? "" : ` ([run log](${input.runUrl}))`;
  return withHiddenBlock(
    [
      `**The cfa worker failed on job #${input.job}**${log}.`,
      "",
      `${fence}text`,
      reason,
      fence,
      "",
      "The job's records are as the last completed step left them; nothing was lost beyond the turn in flight. Fix the cause, then comment on the issue or re-run the workflow to resume.",
    ].join("\n"),
    { v: 1, job: input.job, kind: WORKER_FAILURE_KIND, run: input.runKey },
  );
}

export function isSameFailure(runKey: string) {
  return (block: HiddenBlock): boolean =>
    block.kind === WORKER_FAILURE_KIND && block.run === runKey;
}
