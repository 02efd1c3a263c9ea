// What a follow-up's leads are told of the job before it (docs/protocol.md#jobs-and-states):
// every lead, the request it exists for and where the earlier job's records are; the intent
// lead, besides, the earlier job's INTENT.md, PLAN.md and WORK_SUMMARY.md and the diff of
// the work so far, so it drafts the new intent from what was asked and what was done. All of
// it is data (comments/sanitize.ts asData): what a person or an agent wrote never reaches
// a prompt as instructions.

import { asData } from "../../comments/sanitize.js";
import { requestText } from "../../records/follow-up-request.js";
import { PHASES } from "../../skills/phases.js";
import { LIVE_STATES } from "../../protocol/fsm.js";
import type { JobRecords, JobRepository, Reporter } from "../job/session.js";
import { workDiff } from "../tree/work-diff.js";

/** The most characters of the earlier work's diff an intent lead is given. */
export const FOLLOW_UP_DIFF_CHARS = 40_000;

/** The follow-up's paragraphs of a lead's first message; [] for a job that follows nothing. */
export async function followUpBrief(s: JobRecords & Reporter & JobRepository): Promise<string[]> {
  const f = s.engine.followUp;
  if (f === undefined) return [];
  const request = f.request;
  const asked =
    request.kind === "review"
      ? `a review requesting changes on the pull request, by @${request.by} (on commit ${request.commit.slice(0, 7)})`
      : `\`/cfa\` on the ${request.on === "pull" ? "pull request" : "issue"}, by @${request.by}`;
  const out = [
    `This job is follow-up ${f.round} of issue #${s.n}: the job before it ended ${f.parent.state} (its records, never to be changed, are in \`${f.parent.dir}/\`), and this one carries the work on, on the same branch and pull request, from commit ${f.base.slice(0, 7)}. What was asked for now — ${asked}:`,
    asData(`follow-up request by @${request.by}`, requestText(request)),
  ];
  if (s.job.state !== "INTENT") return out;
  for (const state of LIVE_STATES) {
    const path = `${f.parent.dir}/${PHASES[state].artifact}`;
    const text = (await s.repo.fileAt(f.parent.commit, path))?.toString("utf8");
    out.push(
      text === undefined
        ? `The job before had no \`${path}\`.`
        : `The job before's \`${path}\`:\n${asData(path, text)}`,
    );
  }
  const base = await s.deps.forge.defaultBranch();
  const from =
    (await s.repo.branchHead(base)) ??
    ((
      await s.repo.git.run(["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${base}`])
    ).stdout
      .toString("utf8")
      .trim() ||
      null);
  if (from !== null) {
    const diff = await workDiff(s.repo, from, f.base, FOLLOW_UP_DIFF_CHARS);
    out.push(
      `The work on the pull request so far (\`git diff ${base}...${f.base.slice(0, 7)}\`, the records under \`.cfa/\` left out):\n${asData("the pull request's diff", `${diff.stat}\n\n${diff.patch}`)}`,
    );
  }
  out.push(
    "Draft INTENT.md for this follow-up: what the person wants changed now, in the light of what was intended and done before. The earlier artifacts stay as they are: yours is a new one.",
  );
  return out;
}
