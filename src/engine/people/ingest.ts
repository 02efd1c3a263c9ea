// Human events since the cursor, applied at a turn boundary (an event is a cue to re-read the
// forge): withdraw, intervene, answers, and reviews at a gate — each by a person whose authority
// was checked live, each applied once.

import type { AskHumanMolecule } from "../../protocol/bus/index.js";
import { isLiveState } from "../../protocol/fsm.js";
import { escalationMeta, humanReply } from "../flow/escalations.js";
import { collectHumanEvents, humanPolicy, type HumanEvent } from "./human-events.js";
import { judgeReview } from "./judge-review.js";
import { currentLead } from "../job/instances.js";
import { relayIntervention } from "../flow/intervene.js";
import { queueComment } from "../job/outbox.js";
import { noticeComment, refusalComment } from "../../comments/record-comments.js";
import { requestText } from "../../records/follow-up-request.js";
import { ACTING_PERMISSIONS } from "../../ports/forge.js";
import { ownMention } from "../../comments/own-marks.js";
import {
  append,
  applyChange,
  now,
  persist,
  persistRecords,
  progress,
  type BusLog,
  type Conversation,
  type JobRecords,
  type Reporter,
  type Session,
} from "../job/session.js";
import { afterTransition, applyTransition } from "../flow/transitions.js";
import { ensureLead } from "../flow/leads.js";
import type { MemoForge } from "../job/forge-memo.js";

/** Reads and applies what people did; returns true when anything changed. */
export async function ingestHumanEvents(
  s: Session,
  options: { checkPullRequest?: boolean } = {},
): Promise<boolean> {
  // People's news must be fresh: what the bot read earlier in this wake may be stale.
  (s.deps.forge as Partial<MemoForge>).refresh?.();
  const { events, cursor } = await collectHumanEvents(
    s.deps.forge,
    s.n,
    s.engine,
    humanPolicy(s.config, options.checkPullRequest ? { head: s.paths.branch } : undefined),
  );
  applyChange(s, { type: "people-read", cursor });
  for (const event of events) {
    if (!isLiveState(s.job.state)) break;
    await applyHumanEvent(s, event);
  }
  // A cursor that only moved past comments that ask nothing (the bot's own, mostly) is no decision:
  // it rides with the next commit, the wake's last at the latest (most turn boundaries then need no
  // commit of their own). Re-read after a crash, those comments ask nothing again.
  if (events.length > 0) await persistRecords(s, `cfa #${s.n}: read people's replies`);
  return events.length > 0;
}

function refuse(s: JobRecords & Reporter, login: string, reason: string): void {
  queueComment(s, "refusal", (seq) => refusalComment({ job: s.n, seq, login, reason }));
  progress(s, "HUMAN", "REFUSED", `@${login}: ${reason}`);
}

function pending(s: JobRecords & Conversation, kind: "gate" | "question"): AskHumanMolecule[] {
  return s.soup
    .pendingEscalations()
    .filter((m): m is AskHumanMolecule => m.kind === "AskHuman")
    .filter((m) => s.engine.escalations[m.id]?.kind === kind);
}

async function applyHumanEvent(s: Session, event: HumanEvent): Promise<void> {
  switch (event.kind) {
    case "withdraw": {
      progress(s, "HUMAN", "WITHDRAW", `${event.by}: ${event.reason}`);
      const by = event.by.includes(" ") ? event.by : `@${event.by}`;
      const applied = await applyTransition(s, "WITHDRAW", by, event.reason);
      await persist(s, `cfa #${s.n}: ${applied.from} → WITHDRAWN`);
      await afterTransition(s, applied);
      return;
    }
    case "intervene": {
      // Preemption, not mail (docs/protocol.md#intervention; intervene.ts).
      await ensureLead(s);
      const lead = currentLead(s);
      if (!lead) return;
      await relayIntervention(s, lead, event);
      return;
    }
    case "request":
      await requestWhileLive(s, event.by, event.text, `your \`/cfa\``);
      return;
    case "answer": {
      const open = pending(s, "question");
      const target =
        event.id === null
          ? open.length === 1
            ? open[0]
            : undefined
          : open.find((m) => m.id === event.id);
      if (!target) {
        const ids = open.map((m) => m.id).join(", ");
        refuse(
          s,
          event.by,
          open.length === 0
            ? "there is no open question to answer; nothing was changed."
            : event.id === null
              ? `several questions are open (${ids}); answer one with \`/answer <id> <text>\`.`
              : `there is no open question ${event.id} (open: ${ids}).`,
        );
        return;
      }
      await humanReply(s, target.id, { by: event.by, text: event.text });
      return;
    }
    case "review": {
      const gates = pending(s, "gate");
      const review = event.review;
      const gate = gates[0];
      if (!gate) {
        if (review.state === "APPROVED") {
          refuse(
            s,
            review.author.login,
            "there is no gate open right now; your review changes nothing.",
          );
          return;
        }
        // Changes requested while the job works and no gate waits: a request for more work,
        // taken as one while a follow-up would be (docs/protocol.md#jobs-and-states).
        if (judgeAuthority(s, event)) {
          const text = requestText({
            kind: "review",
            id: review.id,
            by: review.author.login,
            at: review.submittedAt,
            commit: review.commitId,
            body: review.body,
            comments: review.comments.map((c) => ({ ...c, diffHunk: c.diffHunk ?? "" })),
          });
          if (text.trim() !== "") {
            await requestWhileLive(s, review.author.login, text, "your review's changes");
          }
        }
        return;
      }
      const meta = escalationMeta(s, gate.id);
      const pr = s.engine.pr !== null ? await s.deps.forge.findPullRequest(s.paths.branch) : null;
      const judgement = judgeReview({
        review,
        permission: event.permission,
        approvers: s.config.approvers.map((l) => l.toLowerCase()),
        prAuthor: pr?.author.login ?? s.deps.forge.botLogin,
        gate: { artifact: meta.artifact ?? "", sha: meta.gateSha ?? "", blob: meta.gateBlob ?? "" },
        blobAtReview: meta.artifact ? await s.repo.blobAt(review.commitId, meta.artifact) : null,
      });
      if (!judgement.counts) {
        refuse(s, review.author.login, judgement.reason);
        return;
      }
      const inline = review.comments
        .map((c) => `- \`${c.path}${c.line ? `:${c.line}` : ""}\`: ${c.body}`)
        .join("\n");
      const note = [review.body.trim(), inline].filter((x) => x !== "").join("\n\n");
      await humanReply(s, gate.id, {
        by: review.author.login,
        text: note || "(no comment)",
        note,
        verdict: judgement.verdict,
        commit: review.commitId,
      });
      return;
    }
    case "retry": {
      // Only a failed setup waits for a retry; the next round runs it again.
      if (s.engine.setup?.failed === undefined) {
        refuse(
          s,
          event.by,
          "nothing is waiting for `/retry` (it tries a failed setup again); nothing was changed.",
        );
        return;
      }
      applyChange(s, { type: "setup-retry-requested" });
      progress(s, "HUMAN", "RETRY", `${event.by}: try the workspace setup again`);
      return;
    }
    case "pause":
      await pauseJob(s, event);
      return;
    case "resume":
      await resumeJob(s, event);
      return;
    case "refused":
      refuse(s, event.login, event.reason);
      return;
    default: {
      const never: never = event;
      throw new Error(`cfa/engine: unhandled human event ${JSON.stringify(never)}`);
    }
  }
}

/** A review counts as a person's request only from someone who may act, never a bot. */
function judgeAuthority(
  s: JobRecords & Reporter,
  event: Extract<HumanEvent, { kind: "review" }>,
): boolean {
  const who = event.review.author;
  if (who.type === "Bot" || who.login === s.deps.forge.botLogin) return false;
  return (
    s.config.approvers.some((a) => a.toLowerCase() === who.login.toLowerCase()) ||
    ACTING_PERMISSIONS.includes(event.permission)
  );
}

/**
 * A request while a job runs (docs/protocol.md#jobs-and-states: one follow-up at a time per
 * branch): it reaches the current lead as an intervention, and the person hears so once.
 */
async function requestWhileLive(s: Session, by: string, text: string, what: string): Promise<void> {
  await ensureLead(s);
  const lead = currentLead(s);
  if (!lead) return;
  await relayIntervention(s, lead, { by, text });
  const round = s.engine.followUp?.round;
  const job = round === undefined ? `job #${s.n}` : `follow-up ${round} of job #${s.n}`;
  queueComment(s, "notice", (seq) =>
    noticeComment({
      job: s.n,
      seq,
      text: `${ownMention(by)}: ${job} is running (${s.job.state}), so ${what} reached its lead as an intervention (\`/intervene\`): it reads it at its next model call. One follow-up runs at a time on a pull request.`,
    }),
  );
}

/**
 * The job pauses — recorded in state.json and audited in the bus. The wake that
 * applies it stops its running turns at their next model call (wake.ts); what people say
 * while it is paused is recorded as usual and acted on once it is resumed.
 */
async function pauseJob(
  s: JobRecords & Reporter & BusLog,
  event: Extract<HumanEvent, { kind: "pause" }>,
): Promise<void> {
  const paused = s.engine.paused;
  if (paused !== undefined) {
    refuse(
      s,
      event.by,
      `job #${s.n} is paused already (by @${paused.by} since ${paused.since}); \`/resume\` releases it.`,
    );
    return;
  }
  applyChange(s, { type: "job-paused", by: event.by, since: now(s), reason: event.reason });
  await append(s, [{ type: "paused", by: event.by, reason: s.engine.paused?.reason ?? "" }]);
  progress(s, "HUMAN", "PAUSED", `@${event.by}: ${event.reason}`);
}

async function resumeJob(
  s: JobRecords & Reporter & BusLog,
  event: Extract<HumanEvent, { kind: "resume" }>,
): Promise<void> {
  if (s.engine.paused === undefined) {
    refuse(s, event.by, `job #${s.n} is not paused; nothing was changed.`);
    return;
  }
  applyChange(s, { type: "job-resumed" });
  // A pause stops the clock of the gates it held (gate-reminders.ts): their wait counts
  // again from now, so a job paused for a week is not withdrawn the moment it resumes.
  for (const [id, meta] of Object.entries(s.engine.escalations)) {
    if (meta.kind !== "gate" || meta.postedAt === undefined || meta.verdict !== undefined) continue;
    applyChange(s, { type: "escalation-noted", id, patch: { postedAt: now(s) } });
  }
  await append(s, [{ type: "resumed", by: event.by }]);
  progress(s, "HUMAN", "RESUMED", `@${event.by}`);
}
