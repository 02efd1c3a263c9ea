// The job's pull request (DESIGN.md): opened as a draft at the first gate, its body kept
// current, left draft until DONE, closed on withdraw. Nothing reaches the default branch
// without a person merging it. Where drafts are not available (private repositories on
// GitHub Free or Pro) the forge opens it ready instead, and the job says so (issue 10 §4).

import type { PullRequest } from "../../ports/forge.js";
import { applyChange, type Session } from "../job/session.js";
import { ownClosing } from "../../comments/own-marks.js";
import { clip } from "../../secrets/index.js";

export async function ensurePullRequest(s: Session): Promise<PullRequest> {
  const forge = s.deps.forge;
  if (s.engine.pr !== null) {
    const found = await forge.findPullRequest(s.paths.branch);
    if (found && found.number === s.engine.pr) return found;
  }
  const existing = await forge.findPullRequest(s.paths.branch);
  if (existing && existing.state === "open") {
    applyChange(s, { type: "pull-request-found", number: existing.number });
    return existing;
  }
  const pr = await forge.createPullRequest({
    head: s.paths.branch,
    base: await forge.defaultBranch(),
    title: clip(`cfa #${s.n}: ${s.issue.title}`, 250, "a pull request title"),
    body: pullRequestBody(s),
    draft: true,
  });
  applyChange(s, { type: "pull-request-opened", number: pr.number, draft: pr.draft });
  return pr;
}

/** The line the status comment and the pull request carry when it could not be a draft. */
export function notDraftNotice(pr: number | null): string {
  return `The pull request${pr === null ? "" : ` #${pr}`} is not a draft: this repository does not support draft pull requests (GitHub Free or Pro, private repository), so it was opened ready for review. Do not merge it before the job is **DONE**.`;
}

export function pullRequestBody(s: Session): string {
  const dir = s.paths.dir;
  return [
    `The work of cfa job #${s.n}, for #${s.n}. ${ownClosing(s.n)}.`,
    "",
    `- State: **${s.job.state}** · backtracks: ${s.job.backtracks}`,
    `- Artifacts: \`${dir}/INTENT.md\`, \`${dir}/PLAN.md\`, \`${dir}/WORK_SUMMARY.md\``,
    `- Audit trail: \`${dir}/state.json\`, \`${dir}/bus.jsonl\`, \`${dir}/instances/\``,
    "",
    "Each gate is answered by a review of this pull request on the commit named in the gate's comment on the issue: **approve** to go on, **request changes** to revise. It stays a draft until the job is done (where drafts are not available, do not merge it before then); a person merges it.",
  ].join("\n");
}
