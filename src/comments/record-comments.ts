// The bodies of the structured record comments the engine posts (pure; each ends with its
// hidden block so a re-run finds it and never posts twice).

import type { Action, State } from "../protocol/fsm.js";
import { withHiddenBlock } from "./hidden-block.js";
import { neutralizeMentions, shortSha } from "./comment-text.js";
import { ownMention } from "./own-marks.js";
import { redact } from "../secrets/index.js";

export interface RecordBase {
  job: number;
  seq: number;
}

export function gateComment(
  r: RecordBase & {
    id: string;
    artifact: string;
    sha: string;
    state: State;
    /** The requester first, then the configured reviewers. */
    reviewers: readonly string[];
    /** Reviewers GitHub would not ask (not collaborators…), with GitHub's reason. */
    unrequested?: readonly { login: string; reason: string }[];
    prUrl: string;
    content: string;
  },
): string {
  const unrequested = (r.unrequested ?? []).map(
    (u) =>
      `> [!WARNING]\n> GitHub would not request a review from ${ownMention(u.login)}: ${neutralizeMentions(oneParagraph(u.reason))} A review from ${ownMention(u.login)} still counts if they have write access; otherwise ask someone who has.`,
  );
  const body = [
    `**${r.artifact} is ready for your review**, ${r.reviewers.map(ownMention).join(", ")} (gate \`${r.id}\`, ${r.state}).`,
    "",
    `Review it in the [pull request](${r.prUrl}) at commit \`${shortSha(r.sha)}\`: **approve** to move on, or **request changes** with your comments. Only a review of the committed ${r.artifact} counts.`,
    "",
    ...unrequested.flatMap((line) => [line, ""]),
    `<details><summary>${r.artifact}</summary>`,
    "",
    neutralizeMentions(r.content.trim()),
    "",
    "</details>",
  ].join("\n");
  return withHiddenBlock(body, {
    v: 1,
    job: r.job,
    kind: "gate",
    seq: r.seq,
    id: r.id,
    sha: r.sha,
  });
}

export function questionComment(
  r: RecordBase & { id: string; from: string; text: string; asked: string },
): string {
  const body = [
    `**Question \`${r.id}\`** for ${ownMention(r.asked)}, from the ${r.from}:`,
    "",
    quote(neutralizeMentions(r.text)),
    "",
    `Answer with \`/answer ${r.id} <your answer>\` in a comment.`,
  ].join("\n");
  return withHiddenBlock(body, { v: 1, job: r.job, kind: "question", seq: r.seq, id: r.id });
}

export function transitionComment(
  r: RecordBase & { from: State; action: Action; to: State; by: string; reason: string },
): string {
  const body = `**${r.from} → ${r.to}** (${r.action}, by ${neutralizeMentions(r.by)}): ${neutralizeMentions(oneParagraph(r.reason))}`;
  return withHiddenBlock(body, { v: 1, job: r.job, kind: "transition", seq: r.seq, to: r.to });
}

export function refusalComment(r: RecordBase & { login: string; reason: string }): string {
  return withHiddenBlock(`${ownMention(r.login)} ${r.reason}`, {
    v: 1,
    job: r.job,
    kind: "refusal",
    seq: r.seq,
  });
}

export function noticeComment(r: RecordBase & { text: string }): string {
  return withHiddenBlock(r.text, { v: 1, job: r.job, kind: "notice", seq: r.seq });
}

function quote(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

function oneParagraph(text: string): string {
  // Redacted before it is cut: half a secret is still a leak.
  const flat = redact(text, "a comment").replace(/\s+/g, " ").trim();
  return flat.length > 500 ? `${flat.slice(0, 499)}…` : flat;
}

/**
 * The one reminder of a gate nobody answered: it mentions the reviewers
 * with the template's own mark (own-marks.ts), so the outbound filter lets it ping them.
 */
export function reminderComment(
  r: RecordBase & {
    id: string;
    artifact: string;
    reviewers: readonly string[];
    hours: number;
    prUrl?: string | undefined;
    expireAfterDays?: number | undefined;
  },
): string {
  const who = r.reviewers.map(ownMention).join(", ");
  const where = r.prUrl ? ` in the [pull request](${r.prUrl})` : " in the job's pull request";
  const expiry =
    r.expireAfterDays !== undefined
      ? ` Without one, the job is withdrawn after ${r.expireAfterDays} days (\`gates.expireAfterDays\`).`
      : "";
  return withHiddenBlock(
    `⏰ ${who}: gate \`${r.id}\` has waited ${r.hours} hours for a review of ${r.artifact}${where}. Approve it or request changes there; \`/pause\` holds the job, \`/withdraw\` ends it.${expiry}`,
    { v: 1, job: r.job, kind: "reminder", seq: r.seq, id: r.id },
  );
}
