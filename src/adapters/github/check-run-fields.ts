// The port's CheckUpdate → the body of checks/create and checks/update.

import type { CheckUpdate } from "../../ports/forge.js";
import type { CheckRunFields } from "./github-octokit.js";

/** GitHub's limit on a check run's output summary. */
export const CHECK_SUMMARY_LIMIT = 65_535;

function fitSummary(summary: string): string {
  if (summary.length <= CHECK_SUMMARY_LIMIT) return summary;
  const note = "\n\n_… trimmed._";
  return summary.slice(0, CHECK_SUMMARY_LIMIT - note.length) + note;
}

export function checkRunFields(check: CheckUpdate): CheckRunFields {
  if (check.status === "in_progress") {
    return {
      name: check.name,
      status: "in_progress",
      output: {
        title: check.title ?? `${check.name}: in progress`,
        summary: fitSummary(check.summary),
      },
    };
  }
  // GitHub refuses a completed run without a conclusion; "neutral" says nothing either way.
  // It stamps completed_at itself.
  const conclusion = check.conclusion ?? "neutral";
  return {
    name: check.name,
    status: "completed",
    conclusion,
    output: { title: `${check.name}: ${conclusion}`, summary: fitSummary(check.summary) },
  };
}
