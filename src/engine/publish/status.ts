// What the job waits on, in words, and the status comment that says so.

import type { AskHumanMolecule } from "../../protocol/bus/index.js";
import { isLiveState, isTerminalState } from "../../protocol/fsm.js";
import { gateReviewers } from "../flow/escalations.js";
import { notDraftNotice } from "../job/pull-request.js";
import { heldBackNotice } from "../tree/workflow-files.js";
import { PHASES } from "../../skills/phases.js";
import { postOutbox, upsertStatus } from "../job/outbox.js";
import { renderStatusComment } from "../../comments/status-comment.js";
import {
  applyChange,
  type JobRecords,
  type JobRepository,
  type Reporter,
  type Conversation,
} from "../job/session.js";
import { ownMention } from "../../comments/own-marks.js";
import { clip } from "../../secrets/index.js";
import { diskFullAdvice } from "../flow/disk-pause.js";
import { setupBlocksJob } from "../setup/ensure-setup.js";
import { carryOnHint } from "../turn/api-wait.js";
import { runsElsewhere, singleNotice } from "../fanout/dispatch-task-run.js";
import { jobRounds } from "./job-rounds.js";

export function waitingOn(s: JobRecords & Reporter & Conversation): string {
  if (isTerminalState(s.job.state)) {
    const last = s.job.history.at(-1);
    return s.job.state === "DONE"
      ? "nobody: the work is approved; a person merges the pull request, or asks for more (a review that requests changes, or `/cfa <request>`: a follow-up)."
      : `nobody: the job is ${s.job.state}${last ? ` (${clip(last.reason, 4000).replace(/\s+/g, " ").slice(0, 200)})` : ""}.`;
  }
  if (s.engine.diskFull !== undefined) {
    // A full disk pauses the job, live (flow/disk-pause.ts).
    return diskFullAdvice(s.engine.diskFull.since, clip(s.engine.diskFull.last, 300));
  }
  if (s.engine.paused !== undefined) {
    // Nothing runs until a person resumes it; who paused it is named, not pinged.
    const p = s.engine.paused;
    return `a person to resume it (\`/resume\`): PAUSED by @${p.by} since ${p.since} (${clip(p.reason, 4000).replace(/\s+/g, " ").slice(0, 160)}).`;
  }
  if (s.engine.apiWait !== undefined) {
    const last = clip(s.engine.apiWait.last, 4000).replace(/\s+/g, " ");
    // Refused credentials are the installation's to fix, not the job's failure.
    if (s.engine.apiWait.reason === "credentials") {
      return `working model credentials — ${last.slice(0, 300)}. The job is live: once they are fixed, ${carryOnHint(s)} carries it on.`;
    }
    // An outage is waited out, never a failure (api-wait.ts).
    return `the Anthropic API — waiting for the Anthropic API since ${s.engine.apiWait.since} (last error: ${last.slice(0, 160)}). The job is live; ${carryOnHint(s)} tries again.`;
  }
  const failed = s.engine.setup?.failed;
  if (failed !== undefined && setupBlocksJob(s)) {
    // The person fixes the config; not a failure of the job, no retry spent.
    const exit = failed.exitCode === null ? "did not finish" : `exited ${failed.exitCode}`;
    return `${ownMention(s.engine.requester)} to fix the workspace setup (\`${clip(
      failed.command,
      4000,
    )
      .replace(/[`\s]+/g, " ")
      .slice(
        0,
        80,
      )}\` ${exit} in ${failed.workspace === "job" ? "the job's workspace" : `task ${failed.workspace}`}): fix \`setup:\` in .github/cfa.yml on the default branch, then \`/retry\` (locally \`cfa resume\`).`;
  }
  const asks = s.soup
    .pendingEscalations()
    .filter((m): m is AskHumanMolecule => m.kind === "AskHuman");
  for (const m of asks) {
    const meta = s.engine.escalations[m.id];
    if (meta?.kind === "gate") {
      const phase = PHASES[s.job.state as keyof typeof PHASES];
      const who = gateReviewers(s).map(ownMention);
      const reviewers = who.length > 1 ? `${who[0]} (or ${who.slice(1).join(", ")})` : who[0];
      return `${reviewers} to review ${phase?.artifact ?? "the artifact"} in the pull request (gate \`${m.id}\`${meta.gateSha ? ` at \`${meta.gateSha.slice(0, 7)}\`` : ""}).`;
    }
  }
  if (asks.length > 0) {
    return `${ownMention(s.engine.requester)} to answer ${asks.map((m) => `\`${m.id}\``).join(", ")} (\`/answer <id> <text>\`).`;
  }
  const elsewhere = Object.entries(s.engine.fanout?.tasks ?? {}).filter(([id]) => {
    const meta = s.engine.tasks[id];
    return meta !== undefined && runsElsewhere(s, meta.thread);
  });
  if (elsewhere.length > 0) {
    // Each task's own run wakes the lead when it ends.
    const runs = elsewhere.map(
      ([id, l]) =>
        `${id} (${l.runId === null ? "its next run waits for an answer" : `run ${l.runId}`})`,
    );
    return `the tasks' own runs: ${runs.join(", ")}.`;
  }
  return "the agents: work in progress.";
}

export async function publishStatus(
  s: JobRecords & Reporter & Conversation & JobRepository,
): Promise<void> {
  const repoUrl = s.deps.forge.repoUrl;
  const branchUrl = repoUrl.startsWith("https://")
    ? `${repoUrl}/tree/${s.paths.branch}`
    : undefined;
  const artifacts = (["INTENT", "PLAN", "EXECUTE"] as const)
    .filter((st) => s.job.history.some((h) => h.from === st) || s.job.state === st)
    .map((st) => ({
      name: PHASES[st].artifact,
      url: repoUrl.startsWith("https://")
        ? `${repoUrl}/blob/${s.paths.branch}/${s.paths.artifact(PHASES[st].artifact)}`
        : s.paths.artifact(PHASES[st].artifact),
    }));
  const prUrl =
    s.engine.pr !== null && repoUrl.startsWith("https://")
      ? `${repoUrl}/pull/${s.engine.pr}`
      : undefined;
  const notices: string[] = [];
  if (s.engine.prNotDraft && isLiveState(s.job.state)) notices.push(notDraftNotice(s.engine.pr));
  const single = singleNotice(s);
  if (single !== null) notices.push(single);
  if ((s.engine.workflowsHeldBack ?? []).length > 0) {
    notices.push(heldBackNotice(s.engine.workflowsHeldBack ?? []));
  }
  const rounds = await jobRounds(s);
  const body = renderStatusComment({
    job: s.job,
    engine: s.engine,
    ...(rounds === null ? {} : { rounds }),
    waitingOn: waitingOn(s),
    notices,
    setupWaiting: setupBlocksJob(s),
    links: {
      ...(branchUrl ? { branch: branchUrl } : {}),
      ...(prUrl ? { pr: prUrl } : {}),
      artifacts,
    },
  });
  await postOutbox(s);
  const id = await upsertStatus(s.deps.forge, s.n, s.engine.statusComment, body);
  applyChange(s, { type: "status-comment-posted", id });
}
