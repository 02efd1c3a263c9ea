// After a job ended (DONE or WITHDRAWN), what people asked of its pull request since
// (docs/protocol.md#jobs-and-states): a review that requests changes, or `/cfa <request>` on
// the issue or the pull request, by someone who may act. The earliest such request starts a
// follow-up; the ones after it are read by the follow-up itself (a second request while one
// runs reaches its lead as an intervention). A request that cannot start one — the pull
// request merged or closed, the issue closed, the job failed, no authority — gets one reply,
// found again by its hidden block, and nothing starts: the ended job's records never change,
// so nothing is recorded of it.

import type { Comment, Review } from "../../ports/forge.js";
import { parseCommand } from "../../comments/commands.js";
import {
  followUpBlocked,
  followUpRefusalComment,
  isSameFollowUpRefusal,
  type RequestRef,
} from "../../comments/follow-up-comments.js";
import { readHiddenBlock } from "../../comments/hidden-block.js";
import {
  DIFF_HUNK_KEPT,
  INLINE_COMMENTS_KEPT,
  REQUEST_TEXT_KEPT,
  type FollowUpRequest,
} from "../../records/follow-up-request.js";
import type { EngineState } from "../../records/engine-state.js";
import { clip } from "../../secrets/index.js";
import type { MemoForge } from "../job/forge-memo.js";
import { progress, type JobRecords, type Reporter } from "../job/session.js";
import { liveAuthority } from "./live-authority.js";

export interface FollowUpAsked {
  request: FollowUpRequest;
  /** Where the follow-up starts reading people: after its request and what came before it. */
  cursor: EngineState["cursor"];
}

type Stream = "review" | "issue" | "pull";
interface Candidate {
  request: FollowUpRequest;
  stream: Stream;
  time: number;
}
interface Reply {
  /** The issue or pull request the reply goes on: where the person asked. */
  on: number;
  about: RequestRef;
  login: string;
  reason: string;
}

/** The request that starts a follow-up of `s`'s ended job, if any; replies to the rest. */
export async function findFollowUp(s: JobRecords & Reporter): Promise<FollowUpAsked | null> {
  const forge = s.deps.forge;
  (forge as Partial<MemoForge>).refresh?.();
  const approvers = s.config.approvers.map((l) => l.toLowerCase());
  const { mayAct } = liveAuthority(forge, approvers);
  const cursor = s.engine.cursor;
  const pr = s.engine.pr === null ? null : await forge.findPullRequest(s.paths.branch);
  const pull = pr !== null && pr.number === s.engine.pr ? pr : null;
  const asks = (author: Comment["author"]) =>
    author.login !== forge.botLogin &&
    (author.type !== "Bot" || s.config.allowBots.includes(author.login));

  const candidates: Candidate[] = [];
  const replies: Reply[] = [];
  const outsider = (on: number, about: RequestRef, login: string, what: string) =>
    replies.push({
      on,
      about,
      login,
      reason: `only people with write access to this repository (or listed in \`approvers\`) can ask for ${what} on a cfa job. Nothing was changed.`,
    });

  const comments = async (on: number, after: number, where: "issue" | "pull") => {
    for (const comment of await forge.listComments(on)) {
      if (comment.id <= after || !asks(comment.author)) continue;
      const parsed = parseCommand(comment.body);
      if (parsed === null || (parsed.ok ? parsed.command.kind : parsed.verb) !== "cfa") continue;
      const about = { comment: comment.id };
      if (!(await mayAct(comment.author))) {
        outsider(on, about, comment.author.login, "follow-ups (`/cfa`)");
        continue;
      }
      if (!parsed.ok || parsed.command.kind !== "cfa") {
        if (!parsed.ok)
          replies.push({ on, about, login: comment.author.login, reason: parsed.error });
        continue;
      }
      candidates.push({
        stream: where,
        time: Date.parse(comment.createdAt),
        request: {
          kind: "comment",
          id: comment.id,
          by: comment.author.login,
          at: comment.createdAt,
          on: where,
          text: clip(parsed.command.text, REQUEST_TEXT_KEPT, "a follow-up request"),
        },
      });
    }
  };
  await comments(s.n, cursor.comment, "issue");
  if (pull !== null) {
    await comments(pull.number, cursor.pull ?? 0, "pull");
    for (const review of await forge.listReviews(pull.number)) {
      if (review.id <= cursor.review || review.state !== "CHANGES_REQUESTED") continue;
      if (!asks(review.author)) continue;
      if (!(await mayAct(review.author))) {
        outsider(s.n, { review: review.id }, review.author.login, "changes");
        continue;
      }
      candidates.push({
        stream: "review",
        time: Date.parse(review.submittedAt),
        request: fromReview(review),
      });
    }
  }

  const issue = await forge.getIssue(s.n);
  const blocked =
    candidates.length === 0
      ? null
      : followUpBlocked({
          job: s.n,
          label: s.config.label,
          state: s.job.state,
          issue,
          pull:
            pull === null
              ? null
              : { number: pull.number, state: pull.state, merged: pull.merged === true },
        });
  let chosen: Candidate | null = null;
  if (blocked !== null) {
    for (const c of candidates) {
      replies.push({
        on: c.request.kind === "comment" && c.request.on === "pull" ? pull!.number : s.n,
        about: c.request.kind === "review" ? { review: c.request.id } : { comment: c.request.id },
        login: c.request.by,
        reason: blocked,
      });
    }
  } else {
    chosen = earliest(candidates);
  }
  for (const reply of replies) await replyOnce(s, reply);
  if (chosen === null) return null;
  progress(
    s,
    "HUMAN",
    "FOLLOW-UP",
    `@${chosen.request.by} asked for more work (${chosen.request.kind === "review" ? `review ${chosen.request.id}` : `/cfa on the ${chosen.request.on === "pull" ? "pull request" : "issue"}`})`,
  );
  return {
    request: chosen.request,
    cursor: await cursorAfter(s, chosen, pull?.number ?? null),
  };
}

/** The review as a request: its body and each inline comment with its place, bounded. */
function fromReview(review: Review): FollowUpRequest {
  return {
    kind: "review",
    id: review.id,
    by: review.author.login,
    at: review.submittedAt,
    commit: review.commitId,
    body: clip(review.body, REQUEST_TEXT_KEPT, "a review"),
    comments: review.comments.slice(0, INLINE_COMMENTS_KEPT).map((c) => ({
      path: c.path,
      line: c.line,
      body: clip(c.body, REQUEST_TEXT_KEPT, "a review comment"),
      diffHunk: clip(c.diffHunk ?? "", DIFF_HUNK_KEPT, "a diff hunk"),
    })),
  };
}

/** The first request made: by time, then reviews before comments, then by id. */
function earliest(candidates: readonly Candidate[]): Candidate | null {
  const rank: Record<Stream, number> = { review: 0, issue: 1, pull: 2 };
  return (
    [...candidates].sort(
      (a, b) => a.time - b.time || rank[a.stream] - rank[b.stream] || a.request.id - b.request.id,
    )[0] ?? null
  );
}

/**
 * The follow-up reads what came after its request: in the request's own stream everything
 * after it, in the others what was written after it was made (the same second counts as
 * after: a command is never skipped for being written in the same second).
 */
async function cursorAfter(
  s: JobRecords & Reporter,
  chosen: Candidate,
  pull: number | null,
): Promise<EngineState["cursor"]> {
  const forge = s.deps.forge;
  const before = (items: readonly { id: number; time: number }[], from: number) =>
    Math.max(from, ...items.filter((i) => i.time < chosen.time).map((i) => i.id));
  const c = s.engine.cursor;
  const issueComments = (await forge.listComments(s.n)).map((x) => ({
    id: x.id,
    time: Date.parse(x.createdAt),
  }));
  const pullComments =
    pull === null
      ? []
      : (await forge.listComments(pull)).map((x) => ({ id: x.id, time: Date.parse(x.createdAt) }));
  const reviews =
    pull === null
      ? []
      : (await forge.listReviews(pull)).map((x) => ({ id: x.id, time: Date.parse(x.submittedAt) }));
  const id = chosen.request.id;
  return {
    comment: chosen.stream === "issue" ? id : before(issueComments, c.comment),
    review: chosen.stream === "review" ? id : before(reviews, c.review),
    pull: chosen.stream === "pull" ? id : before(pullComments, c.pull ?? 0),
  };
}

/** Posts `reply` unless the bot already answered that request. */
async function replyOnce(s: Reporter, reply: Reply): Promise<void> {
  const forge = s.deps.forge;
  const same = isSameFollowUpRefusal(reply.about);
  const posted = (await forge.listComments(reply.on)).some((comment) => {
    if (comment.author.login !== forge.botLogin) return false;
    const block = readHiddenBlock(comment.body);
    return block !== null && block.job === s.n && same(block);
  });
  if (posted) return;
  await forge.createComment(
    reply.on,
    followUpRefusalComment({
      job: s.n,
      about: reply.about,
      login: reply.login,
      reason: reply.reason,
    }),
  );
  progress(s, "HUMAN", "REFUSED", `@${reply.login}: ${reply.reason}`);
}
