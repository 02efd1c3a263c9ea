// What people did since the last wake, read back from the forge (DESIGN.md: an event is a
// cue to re-read GitHub, never a change to apply blindly). Authority is checked live here.

import type { Actor, Forge, Permission, Review } from "../../ports/forge.js";
import { ACTING_PERMISSIONS } from "../../ports/forge.js";
import type { EngineState } from "../../records/engine-state.js";
import { parseCommand } from "../../comments/commands.js";
import type { CfaConfig } from "../../config/index.js";

export type HumanEvent =
  | { kind: "withdraw"; by: string; reason: string }
  | { kind: "intervene"; by: string; text: string; comment: number }
  | { kind: "answer"; by: string; id: string | null; text: string; comment: number }
  | { kind: "retry"; by: string }
  | { kind: "review"; review: Review; permission: Permission }
  /** Issue 17: pause and resume, each by a person whose authority was checked live. */
  | { kind: "pause"; by: string; reason: string; comment: number }
  | { kind: "resume"; by: string; comment: number }
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
  const permissions = new Map<string, Permission>();
  const permissionOf = async (login: string) => {
    let p = permissions.get(login);
    if (p === undefined) permissions.set(login, (p = await forge.permission(login)));
    return p;
  };
  const mayAct = async (actor: Actor) =>
    policy.approvers.includes(actor.login.toLowerCase()) ||
    ACTING_PERMISSIONS.includes(await permissionOf(actor.login));

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

  for (const comment of await forge.listComments(issueNumber)) {
    if (comment.id <= engine.cursor.comment) continue;
    cursor.comment = Math.max(cursor.comment, comment.id);
    if (comment.author.login === forge.botLogin) continue;
    if (comment.author.type === "Bot" && !policy.allowBots.includes(comment.author.login)) continue;
    const parsed = parseCommand(comment.body);
    if (parsed === null) continue;
    if (!parsed.ok) {
      events.push({
        kind: "refused",
        login: comment.author.login,
        reason: parsed.error,
        comment: comment.id,
      });
      continue;
    }
    if (!(await mayAct(comment.author))) {
      events.push({
        kind: "refused",
        login: comment.author.login,
        reason: `only people with write access can use \`/${parsed.command.kind}\` on this job; nothing was changed.`,
        comment: comment.id,
      });
      continue;
    }
    const by = comment.author.login;
    const command = parsed.command;
    switch (command.kind) {
      case "withdraw":
        events.push({ kind: "withdraw", by, reason: command.reason });
        break;
      case "intervene":
        events.push({ kind: "intervene", by, text: command.text, comment: comment.id });
        break;
      case "answer":
        events.push({
          kind: "answer",
          by,
          id: command.id,
          text: command.text,
          comment: comment.id,
        });
        break;
      case "retry":
        events.push({ kind: "retry", by });
        break;
      case "pause":
        events.push({ kind: "pause", by, reason: command.reason, comment: comment.id });
        break;
      case "resume":
        events.push({ kind: "resume", by, comment: comment.id });
        break;
      default: {
        const never: never = command;
        throw new Error(`unhandled command ${JSON.stringify(never)}`);
      }
    }
  }

  if (engine.pr !== null) {
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
