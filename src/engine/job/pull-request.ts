// The job's pull request: opened as a draft at the first
// gate, its body kept current (rewritten at a wake's end only when what it says
// changed — the state, the backtracks, the last step — so one call per transition at most),
// left draft until DONE, closed on withdraw. Nothing reaches the default branch
// without a person merging it. Where drafts are not available (private repositories on
// GitHub Free or Pro) the forge opens it ready instead, and the job says so.

import { createHash } from "node:crypto";
import type { PullRequest } from "../../ports/forge.js";
import { applyChange, type Session, type JobRecords, type Reporter } from "./session.js";
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
  const body = pullRequestBody(s);
  const pr = await forge.createPullRequest({
    head: s.paths.branch,
    base: await forge.defaultBranch(),
    title: clip(`cfa #${s.n}: ${s.issue.title}`, 250, "a pull request title"),
    body,
    draft: true,
  });
  applyChange(s, {
    type: "pull-request-opened",
    number: pr.number,
    draft: pr.draft,
    body: bodyDigest(body),
  });
  return pr;
}

/**
 * Writes the pull request's body when it no longer says what the records say (a transition,
 * a backtrack, or a pull request found open whose body is not known). Nothing to do when the
 * job has no pull request yet or the body is current: no call.
 */
export async function describePullRequest(s: JobRecords & Reporter): Promise<void> {
  if (s.engine.pr === null) return;
  const body = pullRequestBody(s);
  const digest = bodyDigest(body);
  if (s.engine.prBody === digest) return;
  await s.deps.forge.updatePullRequest(s.engine.pr, { body });
  applyChange(s, { type: "pull-request-described", body: digest });
}

/** What the records keep of a body: enough to tell it changed. */
function bodyDigest(body: string): string {
  return createHash("sha256").update(body).digest("hex").slice(0, 16);
}

/** The line the status comment and the pull request carry when it could not be a draft. */
export function notDraftNotice(pr: number | null): string {
  return `The pull request${pr === null ? "" : ` #${pr}`} is not a draft: this repository does not support draft pull requests (GitHub Free or Pro, private repository), so it was opened ready for review. Do not merge it before the job is **DONE**.`;
}

export function pullRequestBody(s: JobRecords): string {
  const dir = s.paths.dir;
  const last = s.job.history.at(-1);
  const step =
    last === undefined
      ? []
      : [
          `- Last step: ${last.from} → ${last.to}: ${cut(clip(last.reason, 4000, "a pull request body").replace(/\s+/g, " "), 300)}`,
        ];
  return [
    `The work of cfa job #${s.n}, for #${s.n}. ${ownClosing(s.n)}.`,
    "",
    `- State: **${s.job.state}**${stateNote(s.job.state)} · backtracks: ${s.job.backtracks}`,
    ...step,
    `- Artifacts: \`${dir}/INTENT.md\`, \`${dir}/PLAN.md\`, \`${dir}/WORK_SUMMARY.md\``,
    `- Audit trail: \`${dir}/state.json\`, \`${dir}/bus.jsonl\`, \`${dir}/instances/\``,
    "",
    "Each gate is answered by a review of this pull request on the commit named in the gate's comment on the issue: **approve** to go on, **request changes** to revise. It stays a draft until the job is done (where drafts are not available, do not merge it before then); a person merges it.",
  ].join("\n");
}

/** At most `max` characters, the cut shown with "…". */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** What a person does with the pull request in each state. */
function stateNote(state: string): string {
  switch (state) {
    case "DONE":
      return " — the work is approved: look it over and merge it";
    case "WITHDRAWN":
      return " — withdrawn: closed unmerged";
    case "FAILURE":
      return " — the job failed: do not merge it";
    default:
      return " — in progress: do not merge it yet";
  }
}
