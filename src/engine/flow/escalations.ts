// Escalation (docs/protocol.md#escalation): the proxy answers, escalates to the person, or
// withdraws, under the state's policy; a person's reply (a review at a gate, an `/answer` to a
// question) fires [human-reply]; the answer reaches the asking agent by [respond].

import { callFacts } from "../../agents/tools/call-facts.js";
import { addressKey, threads } from "../../protocol/address.js";
import type { AskHumanMolecule, Content, ProxyMolecule } from "../../protocol/bus/index.js";
import { withdrawAnswer } from "../../protocol/bus/index.js";
import { isLiveState } from "../../protocol/fsm.js";
import { PHASES } from "../../skills/phases.js";
import type { Message } from "../../ports/model.js";
import { runAgent } from "../turn/agent-run.js";
import type { EscalationMeta } from "../../records/engine-state.js";
import { appendText, readText } from "../tree/files.js";
import { asData, stripHiddenMarkup } from "../../comments/sanitize.js";
import { clip } from "../../secrets/index.js";
import { DECISION_NOTE_KEPT } from "../../records/engine-state.js";
import { proxyMemoryPath } from "../../records/job-paths.js";
import { systemPrompt } from "../turn/prompts.js";
import { queueComment } from "../job/outbox.js";
import { gateComment, questionComment } from "../../comments/record-comments.js";
import {
  applyChange,
  append,
  now,
  progress,
  type Session,
  type BusLog,
  type JobRecords,
  type JobRepository,
  type JobTree,
  type Conversation,
  type Reporter,
} from "../job/session.js";
import { workspaceOf } from "../turn/task-workspace.js";
import { ensurePullRequest } from "../job/pull-request.js";
import { isAutoIntentGate } from "../job/escalation-policy.js";

export function escalationMeta(s: JobRecords, id: string): EscalationMeta {
  const meta = s.engine.escalations[id];
  if (!meta) throw new Error(`cfa/engine: escalation ${id} has no record in state.json`);
  return meta;
}

function setMeta(s: JobRecords, id: string, patch: Partial<EscalationMeta>): void {
  applyChange(s, { type: "escalation-noted", id, patch });
}

/** Proxies with work to do now: fresh ones, and those the person has just replied to. */
export function proxiesToRun(s: Conversation): ProxyMolecule[] {
  return s.soup
    .pendingEscalations()
    .filter((m): m is ProxyMolecule => m.kind === "Proxy")
    .sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
}

/** One proxy move for escalation `m`. Returns once the move is in the log. */
/**
 * What every answer records, for the audit trail: the policy it was given under, whether the
 * person was asked, and which files the proxy read to form its view.
 */
function answerRecord(s: JobRecords, m: ProxyMolecule, humanAsked: boolean) {
  return {
    id: m.id,
    policy: m.policy,
    humanAsked,
    filesRead: escalationMeta(s, m.id).proxyRead ?? [],
  };
}

/** The workspace paths a run's reading calls named (read_file, list_files, search_files, an editor's view). */
export function filesRead(messages: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const read = callFacts(block.name, block.input).reads;
      if (read !== undefined) paths.add(read);
    }
  }
  return [...paths].sort();
}

export async function runProxy(s: Session, m: ProxyMolecule): Promise<void> {
  const meta = escalationMeta(s, m.id);
  if (m.h === "post-human") {
    // The person has answered: relay it (the proxy chooses its answer; here, the person's).
    const answer: Content = {
      kind: "answer",
      text: m.question.text,
      data: { ...(m.question.data ?? {}), ...answerRecord(s, m, true) },
    };
    await append(s, s.soup.respond(m.id, answer).events);
    return;
  }
  if (isAutoIntentGate(s, meta.state, meta.kind)) {
    // `followups.intent: auto`: the person's request is the follow-up's intent, so its
    // INTENT.md is approved as drafted, on the person's word in the configuration.
    await recordGateCommit(s, m.id);
    setMeta(s, m.id, { verdict: "approved", answeredBy: "followups.intent: auto" });
    progress(s, "GATE", "APPROVED", `${m.id}: followups.intent is auto`);
    await append(
      s,
      s.soup.respond(m.id, {
        kind: "answer",
        text: "approved (`followups.intent: auto` in .github/cfa.yml: the request is the intent)",
        data: { ...answerRecord(s, m, false), verdict: "approved" },
      }).events,
    );
    return;
  }
  if (m.policy === "always") {
    // [escalate] must come first under `always`: the person is asked as the agent asked.
    await append(s, s.soup.escalate(m.id, { kind: meta.kind, text: meta.text }).events);
    setMeta(s, m.id, { framed: meta.text });
    return;
  }
  const address = { agent: "proxy", thread: threads.escalation(m.id) };
  const ws = await workspaceOf(s, m.caller);
  const memory = (await readText(s.jobWs.root, proxyMemoryPath(s.engine.requester))) ?? "";
  const gate = meta.kind === "gate";
  // The proxy's system prompt is the role's and the job's, fixed for the instance's
  // life; what changes from one run to the next (the policy, what the person has told it since)
  // arrives in the message, so every earlier turn — thinking included — stays valid and cached
  // ("Put each update at the end in a new message",
  // https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks).
  const run = await runAgent(s, {
    address,
    role: "proxy",
    ws,
    readOnly: true,
    system: systemPrompt(s, address, "proxy"),
    incoming: {
      kind: "question",
      text: [
        `${gate ? "Gate review" : "Question"} \`${m.id}\` from ${addressKey(m.caller)}:`,
        asData("agent question", meta.text),
        gate
          ? `The artifact under review is \`${meta.artifact}\`: read it. Answer \`approved\` to approve it on the person's behalf, or say what must change.`
          : "",
        `# Policy\nThe escalation policy here is \`${m.policy}\`: ${
          m.policy === "never"
            ? "you must answer yourself; you cannot escalate."
            : "answer when you are confident the person would agree; otherwise escalate."
        }`,
        `# MEMORY of @${s.engine.requester} (as of now)\n${asData("proxy memory", memory || "(nothing yet)")}`,
      ]
        .filter((part) => part !== "")
        .join("\n\n"),
    },
    policyAllowsEscalate: m.policy !== "never",
  });
  // A proxy turn that broke is a state-level failure (wake.ts), not a proxy without an
  // opinion; one a cap stopped makes no move (the wake fails the job on the cap).
  if (run.failure !== null) throw new Error(run.failure);
  if (run.result.end.kind === "halted") return;
  const decision = run.decisions.proxy;
  setMeta(s, m.id, {
    proxyRead: [...new Set([...(meta.proxyRead ?? []), ...filesRead(run.result.messages)])].sort(),
  });
  if (decision?.kind === "escalate") {
    await append(s, s.soup.escalate(m.id, { kind: meta.kind, text: decision.question }).events);
    setMeta(s, m.id, { framed: decision.question });
    return;
  }
  if (decision?.kind === "withdraw") {
    setMeta(s, m.id, { verdict: "withdraw", answeredBy: "proxy" });
    await append(
      s,
      s.soup.respond(m.id, {
        kind: "answer",
        text: withdrawAnswer(decision.reason),
        data: answerRecord(s, m, false),
      }).events,
    );
    return;
  }
  if (decision === null && m.policy === "when_unsure") {
    // A proxy that decided nothing is not confident: the person decides.
    await append(s, s.soup.escalate(m.id, { kind: meta.kind, text: meta.text }).events);
    setMeta(s, m.id, { framed: meta.text });
    return;
  }
  const text =
    decision?.kind === "answer"
      ? decision.text
      : "The proxy had no answer; use your best judgement and say so.";
  const approved = gate && /^\s*approved\b/i.test(text);
  if (gate) await recordGateCommit(s, m.id);
  setMeta(s, m.id, {
    verdict: gate ? (approved ? "approved" : "changes") : "answer",
    answeredBy: "proxy",
  });
  progress(
    s,
    "PROXY",
    gate ? (approved ? "APPROVED" : "CHANGES") : "ANSWER",
    `${m.id} answered by the proxy`,
  );
  await append(
    s,
    s.soup.respond(m.id, {
      kind: "answer",
      text: gate
        ? approved
          ? "approved (by the person's proxy)"
          : `changes requested by the person's proxy:\n${text}`
        : text,
      data: {
        ...answerRecord(s, m, false),
        ...(gate ? { verdict: approved ? "approved" : "changes" } : {}),
      },
    }).events,
  );
}

/** Pins the commit and blob of the gate's artifact: what an approval approves. */
async function recordGateCommit(
  s: JobRecords & JobRepository,
  id: string,
): Promise<{ sha: string; blob: string }> {
  const meta = escalationMeta(s, id);
  if (meta.gateSha && meta.gateBlob) return { sha: meta.gateSha, blob: meta.gateBlob };
  const sha = await s.repo.head();
  const blob = meta.artifact ? await s.repo.blobAt(sha, meta.artifact) : null;
  if (blob === null)
    throw new Error(`cfa/engine: gate ${id}: ${meta.artifact ?? "artifact"} is not committed`);
  setMeta(s, id, { gateSha: sha, gateBlob: blob });
  return { sha, blob };
}

/** Who a gate asks: the job's requester, then `reviewers:` from the config, each once. */
export function gateReviewers(s: JobRecords): string[] {
  const seen = new Set<string>();
  return [s.engine.requester, ...s.config.reviewers].filter((login) => {
    const key = login.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** AskHuman molecules whose question has not been put to the person yet. */
export function unpostedQuestions(s: JobRecords & Conversation): AskHumanMolecule[] {
  return s.soup
    .pendingEscalations()
    .filter((m): m is AskHumanMolecule => m.kind === "AskHuman")
    .filter((m) => s.engine.escalations[m.id]?.postedSeq === undefined);
}

/**
 * Puts an AskHuman to the person: a gate becomes a review request on the job's pull request
 * (pinned to the artifact's commit), a question an issue comment. Queued in the outbox, so
 * it is posted once even across a crash.
 */
export async function postToHuman(s: Session, m: AskHumanMolecule): Promise<void> {
  const meta = escalationMeta(s, m.id);
  const asked = s.engine.requester;
  if (meta.kind === "gate") {
    const { sha } = await recordGateCommit(s, m.id);
    const pr = await ensurePullRequest(s);
    const artifact = meta.artifact ?? "";
    // What the person reviews is the artifact as committed at the gate, a regular file's
    // bytes — never what a path on disk leads to (a link could lead to the engine's secrets).
    const committed = artifact === "" ? null : await s.repo.fileAt(sha, artifact);
    const content =
      committed?.toString("utf8") ??
      `(${artifact || "the artifact"} is not a regular file in commit ${sha.slice(0, 7)}; it is not shown)`;
    const state = isLiveState(meta.state) ? meta.state : "INTENT";
    const reviewers = gateReviewers(s);
    // A review request GitHub refuses (not a collaborator, say) is said in the gate's
    // comment, not only logged; the gate still waits for a review that counts.
    const { refused } = await s.deps.forge
      .requestReview(pr.number, reviewers)
      .catch((error: unknown) => {
        const reason = (error as Error).message;
        s.deps.logger.warn(`cfa #${s.n}: review request failed: ${reason}`);
        return { refused: reviewers.map((login) => ({ login, reason })) };
      });
    queueComment(s, "gate", (seq) =>
      gateComment({
        job: s.n,
        seq,
        id: m.id,
        artifact: PHASES[state].artifact,
        sha,
        state,
        reviewers,
        unrequested: refused,
        prUrl: pr.url,
        content,
      }),
    );
    progress(
      s,
      "GATE",
      "APPROVAL",
      `⏸ ${PHASES[state].artifact} waits for @${asked}'s review at ${sha.slice(0, 7)}`,
    );
  } else {
    queueComment(s, "question", (seq) =>
      questionComment({
        job: s.n,
        seq,
        id: m.id,
        from: m.caller.agent,
        text: m.framed.text,
        asked,
      }),
    );
    progress(s, "ASK", "QUESTION", `⏸ ${m.id} waits for @${asked}'s answer`);
  }
  setMeta(s, m.id, { postedSeq: s.engine.seq - 1, postedAt: now(s) });
}

/** Appends what the person said to their proxy's memory, so the proxy learns the person. */
export async function remember(
  s: JobRecords & Reporter & JobTree,
  id: string,
  by: string,
  reply: string,
): Promise<void> {
  const meta = escalationMeta(s, id);
  const date = now(s).slice(0, 10);
  const question = meta.text.replace(/\s+/g, " ").slice(0, 300);
  const answer = reply.replace(/\s+/g, " ").slice(0, 1000);
  const entry = `- ${date} job #${s.n} ${meta.state} ${id} (${meta.kind}): asked "${question}" — @${by} replied: "${answer}"\n`;
  const path = proxyMemoryPath(s.engine.requester);
  const existing = await readText(s.jobWs.root, path);
  const header =
    existing === null ? `# What @${s.engine.requester} has told cfa-bot's agents\n\n` : "";
  await appendText(s.jobWs.root, path, header + entry);
}

/** Fires [human-reply] for escalation `id` with the person's words, kept as data. */
export async function humanReply(
  s: JobRecords & Reporter & Conversation & BusLog,
  id: string,
  reply: {
    by: string;
    text: string;
    verdict?: "approved" | "changes";
    commit?: string;
    /** The decision's own words (a review's body), kept on the record; "" when it has none. */
    note?: string;
  },
): Promise<void> {
  const meta = escalationMeta(s, id);
  const note = stripHiddenMarkup(reply.note ?? "").trim();
  // The lead hears an approval's note with the approval, as data like any person's text.
  const text =
    meta.kind === "gate"
      ? reply.verdict === "approved"
        ? `approved by @${reply.by}${note ? `, with a note:\n${asData(`approval note by @${reply.by}`, note)}` : ""}`
        : `changes requested by @${reply.by}:\n${asData(`review by @${reply.by}`, reply.text)}`
      : `@${reply.by} answered:\n${asData(`answer by @${reply.by}`, reply.text)}`;
  await append(
    s,
    s.soup.humanReply(id, {
      kind: "human-reply",
      text,
      data: {
        by: reply.by,
        ...(reply.verdict ? { verdict: reply.verdict } : {}),
        ...(reply.commit ? { commit: reply.commit } : {}),
      },
    }).events,
  );
  setMeta(s, id, {
    answeredBy: reply.by,
    verdict: meta.kind === "gate" ? (reply.verdict ?? "changes") : "answer",
    answeredAt: now(s),
    // Kept with the decision in state.json (redacted, then cut): the history shows it.
    ...(meta.kind === "gate" && note ? { note: clip(note, DECISION_NOTE_KEPT) } : {}),
  });
  await remember(s, id, reply.by, reply.verdict === "approved" ? "approved" : reply.text);
  progress(
    s,
    "HUMAN",
    meta.kind === "gate" ? (reply.verdict === "approved" ? "APPROVED" : "CHANGES") : "ANSWER",
    `${id} by @${reply.by}`,
  );
}
