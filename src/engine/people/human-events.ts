// What people did since the last wake, read back from the forge (an event is a cue to re-read
// GitHub, never a change to apply blindly). Authority is checked live here.

import type { Comment, Forge, Permission, Review } from "../../ports/forge.js";
import type { EngineState } from "../../records/engine-state.js";
import { parseCommand, type Command } from "../../comments/commands.js";
import { liveAuthority } from "./live-authority.js";
import type { CfaConfig } from "../../config/index.js";

export type HumanEvent =
  | { kind: "withdraw"; by: string; reason: string }
  | { kind: "intervene"; by: string; text: string; comment: number }
  | { kind: "answer"; by: string; id: string | null; text: string; comment: number }
  | { kind: "retry"; by: string }
  | { kind: "review"; review: Review; permission: Permission }
  /** Pause and resume, each by a person whose authority was checked live. */
  | { kind: "pause"; by: string; reason: string; comment: number }
  | { kind: "resume"; by: string; comment: number }
  /**
   * `/cfa <request>` while the job runs (docs/protocol.md#jobs-and-states: one follow-up at a
   * time): it reaches the current lead as an intervention, and the person is told so.
   */
  | { kind: "request"; by: string; text: string; comment: number; on: "issue" | "pull" }
  /** Someone without authority, or a malformed command: a one-line reply, nothing changes. */
  | { kind: "refused"; login: string; reason: string; comment: number };

export interface HumanPolicy {
  label: string;
  /**
   * Also look at the job's pull request: closed or merged by a person before the job is
   * done ends it. Once per wake is enough (the app wakes the job when a PR closes).
   */
  pullRequest?: { head: string } | undefined;
  approvers: string[];
  allowBots: string[];
}

/** The policy `.github/cfa.yml` sets for reading people; `pullRequest` as in HumanPolicy. */
export function humanPolicy(
  config: Pick<CfaConfig, "label" | "approvers" | "allowBots">,
  pullRequest?: { head: string },
): HumanPolicy {
  return {
    label: config.label,
    approvers: config.approvers.map((l) => l.toLowerCase()),
    allowBots: config.allowBots,
    pullRequest,
  };
}

export interface Collected {
  events: HumanEvent[];
  cursor: EngineState["cursor"];
}

export async function collectHumanEvents(
  forge: Forge,
  issueNumber: number,
  engine: EngineState,
  policy: HumanPolicy,
): Promise<Collected> {
  const events: HumanEvent[] = [];
  const cursor = { ...engine.cursor };
  const { permissionOf, mayAct } = liveAuthority(forge, policy.approvers);
  const asks = (comment: Comment) =>
    comment.author.login !== forge.botLogin &&
    (comment.author.type !== "Bot" || policy.allowBots.includes(comment.author.login));

  const issue = await forge.getIssue(issueNumber);
  if (issue.state === "closed") {
    events.push({ kind: "withdraw", by: "issue closed", reason: "the issue was closed" });
  } else if (!issue.labels.includes(policy.label)) {
    events.push({
      kind: "withdraw",
      by: "label removed",
      reason: `the \`${policy.label}\` label was removed`,
    });
  }

  if (engine.pr !== null && policy.pullRequest && events.length === 0) {
    const pr = await forge.findPullRequest(policy.pullRequest.head);
    if (pr && pr.number === engine.pr && pr.state === "closed") {
      events.push({
        kind: "withdraw",
        by: "pull request closed",
        reason: `the job's pull request #${pr.number} was closed before the job was done`,
      });
    }
  }

  /**
   * The commands of `comments` past `after`, each from someone whose authority was checked
   * (or refused in one line); `only`: the one verb read there (the pull request's `/cfa`).
   */
  const commands = async (
    comments: readonly Comment[],
    after: number,
    on: "issue" | "pull",
    only?: "cfa",
  ): Promise<number> => {
    let last = after;
    for (const comment of comments) {
      if (comment.id <= after) continue;
      last = Math.max(last, comment.id);
      if (!asks(comment)) continue;
      const parsed = parseCommand(comment.body);
      if (parsed === null) continue;
      if (only !== undefined && (parsed.ok ? parsed.command.kind : parsed.verb) !== only) continue;
      const login = comment.author.login;
      if (!parsed.ok) {
        events.push({ kind: "refused", login, reason: parsed.error, comment: comment.id });
        continue;
      }
      if (!(await mayAct(comment.author))) {
        events.push({
          kind: "refused",
          login,
          reason: `only people with write access can use \`/${parsed.command.kind}\` on this job; nothing was changed.`,
          comment: comment.id,
        });
        continue;
      }
      events.push(eventOf(parsed.command, login, comment.id, on));
    }
    return last;
  };

  cursor.comment = await commands(
    await forge.listComments(issueNumber),
    engine.cursor.comment,
    "issue",
  );
  if (engine.pr !== null) {
    // On the pull request only `/cfa` is read: every other command lives on the issue.
    const pull = await commands(
      await forge.listComments(engine.pr),
      engine.cursor.pull ?? 0,
      "pull",
      "cfa",
    );
    if (pull > 0) cursor.pull = pull;
    for (const review of await forge.listReviews(engine.pr)) {
      if (review.id <= engine.cursor.review) continue;
      cursor.review = Math.max(cursor.review, review.id);
      if (review.state !== "APPROVED" && review.state !== "CHANGES_REQUESTED") continue;
      if (review.author.login === forge.botLogin) continue;
      events.push({ kind: "review", review, permission: await permissionOf(review.author.login) });
    }
  }
  return { events, cursor };
}

/** A command a person may give, as the event it is. */
function eventOf(command: Command, by: string, comment: number, on: "issue" | "pull"): HumanEvent {
  switch (command.kind) {
    case "withdraw":
      return { kind: "withdraw", by, reason: command.reason };
    case "intervene":
      return { kind: "intervene", by, text: command.text, comment };
    case "answer":
      return { kind: "answer", by, id: command.id, text: command.text, comment };
    case "retry":
      return { kind: "retry", by };
    case "pause":
      return { kind: "pause", by, reason: command.reason, comment };
    case "resume":
      return { kind: "resume", by, comment };
    case "cfa":
      return { kind: "request", by, text: command.text, comment, on };
    default: {
      const never: never = command;
      throw new Error(`unhandled command ${JSON.stringify(never)}`);
    }
  }
}
