// Gates nobody answers: after `gates.remindAfterHours` one comment
// reminds the gate's reviewers, and after `gates.expireAfterDays` the job is withdrawn with
// a reason saying so. Run by every wake of a live job that is not paused — the sweep wakes
// a job when one is due (worker/job-needs-wake.ts), so no runner is kept waiting; locally
// any verb's wake does it. Each reminder is queued in the outbox with its gate's
// `remindedAt` in the same commit, so it is posted once, across sweeps and crashes.

import { gatesDue } from "../../records/gate-deadlines.js";
import { isLiveState } from "../../protocol/fsm.js";
import { PHASES } from "../../skills/phases.js";
import { reminderComment } from "../../comments/record-comments.js";
import { applyChange, now, persist, progress, type Session } from "../job/session.js";
import { queueComment } from "../job/outbox.js";
import { afterTransition, applyTransition } from "./transitions.js";
import { gateReviewers } from "./escalations.js";

/** Reminds or expires the gates that are due; true when it changed anything. */
export async function remindGates(s: Session): Promise<boolean> {
  if (!isLiveState(s.job.state) || s.engine.paused !== undefined) return false;
  const policy = s.config.gates;
  const due = gatesDue(s.engine, s.job.state, policy, s.deps.clock.now());
  if (due.length === 0) return false;
  const expired = due.find((d) => d.kind === "expire");
  if (expired !== undefined) {
    const reason = `gate ${expired.id} waited ${expired.waitedDays} days without a review (gates.expireAfterDays: ${policy.expireAfterDays})`;
    progress(s, "GATE", "EXPIRED", reason);
    const applied = await applyTransition(s, "WITHDRAW", "gates.expireAfterDays", reason);
    await persist(s, `cfa #${s.n}: ${applied.from} → WITHDRAWN (gate ${expired.id} expired)`);
    await afterTransition(s, applied);
    return true;
  }
  const repoUrl = s.deps.forge.repoUrl;
  const prUrl =
    s.engine.pr !== null && repoUrl.startsWith("https://")
      ? `${repoUrl}/pull/${s.engine.pr}`
      : undefined;
  for (const d of due) {
    if (d.kind !== "remind") continue;
    const state = isLiveState(d.meta.state) ? d.meta.state : s.job.state;
    const artifact = isLiveState(state) ? PHASES[state].artifact : "the artifact";
    const reviewers = gateReviewers(s);
    queueComment(s, "reminder", (seq) =>
      reminderComment({
        job: s.n,
        seq,
        id: d.id,
        artifact,
        reviewers,
        hours: d.waitedHours,
        prUrl,
        expireAfterDays: policy.expireAfterDays,
      }),
    );
    applyChange(s, { type: "escalation-noted", id: d.id, patch: { remindedAt: now(s) } });
    progress(
      s,
      "GATE",
      "REMINDER",
      `${d.id} waited ${d.waitedHours} h; reminded ${reviewers.map((r) => `@${r}`).join(", ")}`,
    );
  }
  await persist(s, `cfa #${s.n}: remind the reviewers of ${due.map((d) => d.id).join(", ")}`);
  return true;
}
