// decideDelivery(event, triage, authority) → the effects of one delivery: where a
// webhook becomes a dispatch of the worker. Pure: the handler reads the permission live and
// runs what comes back, in this order: cancel, then cue, then 👀 (the worker's
// dispatch is the effect that matters, so under GitHub's pace of about one write a second it
// goes before the acknowledgement).
//
// Authority is judged here, before any dispatch (else a read-only outsider's 12
// /withdraw comments start 12 worker runs, each replying). A command, a malformed
// command or a gate review from someone without write access (and not in `approvers`)
// gets one reply from the app, keyed by the comment or review (post-once), and no run;
// the worker, which keeps its own check for the Actions-only route and for what the app
// never saw, skips what the app has answered (src/worker/skip-refused.ts), so the person
// hears once. The worker still answers what only it can judge: a malformed command from
// someone who may act, a review of the wrong commit, a gate that is not open.

import type { Permission } from "../ports/forge.js";
import type { AppAction, Decision } from "./app-action.js";
import type { AppEvent } from "./app-event.js";
import type { Triage } from "./triage-event.js";

export interface Authority {
  permission: Permission;
  /** Write access or better, or listed in `approvers`. */
  mayAct: boolean;
}

type Acting = Extract<Triage, { act: true }>;

export function decideDelivery(
  event: AppEvent,
  triage: Acting,
  authority: Authority | null,
): Decision {
  const { job, actor } = triage;
  if (triage.needsAuthority && authority === null) {
    throw new Error(
      `cfa/app: decideDelivery needs @${actor.login}'s permission for a ${triage.intent}`,
    );
  }
  const dispatch: AppAction = { kind: "dispatch", job };
  switch (triage.intent) {
    case "start":
      if (authority?.mayAct) {
        return {
          actions: [dispatch, { kind: "react", target: { issue: job } }],
          keys: [`start:${job}`],
          note: `@${actor.login} (${authority.permission}) starts job #${job}`,
        };
      }
      return {
        actions: [
          {
            kind: "refuse-start",
            job,
            login: actor.login,
            permission: authority?.permission ?? "none",
          },
        ],
        keys: [`refuse-start:${job}:${actor.login.toLowerCase()}`],
        note: `@${actor.login} (${authority?.permission ?? "none"}) may not start job #${job}`,
      };
    case "stop":
      return {
        actions: [{ kind: "cancel-runs", job }, dispatch],
        keys: [],
        note: `job #${job}: the issue was ${event.kind === "issue" ? event.action : "changed"}; the worker withdraws it`,
      };
    case "command": {
      const comment = event.kind === "comment" ? event.comment.id : null;
      if (comment === null || triage.command === null) {
        throw new Error("cfa/app: a command intent without a comment");
      }
      const keys = [`comment:${comment}`];
      if (!authority?.mayAct) {
        return {
          actions: [
            refuseCommand(event, job, comment, actor.login, authority, triage.command.kind),
          ],
          keys,
          note: `@${actor.login} (${authority?.permission ?? "none"}) may not /${triage.command.kind} on job #${job}; refused, no run`,
        };
      }
      if (event.kind === "comment" && event.action === "edited") {
        // The worker reads a comment once, when its cursor passes it: an edit it has not
        // read yet counts, one it has read does not. Only the worker knows which, so an
        // edit is a cue without 👀 and without cancelling anything.
        return {
          actions: [dispatch],
          keys,
          note: `@${actor.login} edited a comment into /${triage.command.kind} on job #${job}`,
        };
      }
      return {
        actions: [
          // [cascade] (docs/protocol.md#withdrawal): the withdrawal must not wait for a long
          // turn to end.
          ...(triage.command.kind === "withdraw" ? [{ kind: "cancel-runs" as const, job }] : []),
          dispatch,
          { kind: "react", target: { comment } },
        ],
        keys,
        note: `@${actor.login} (${authority.permission}) /${triage.command.kind} on job #${job}`,
      };
    }
    case "bad-command": {
      const comment = event.kind === "comment" ? event.comment.id : 0;
      if (!authority?.mayAct) {
        return {
          actions: [refuseCommand(event, job, comment, actor.login, authority, null)],
          keys: [`comment:${comment}`],
          note: `@${actor.login} (${authority?.permission ?? "none"}) wrote a malformed command on job #${job}; refused, no run`,
        };
      }
      return {
        actions: [dispatch],
        keys: [`comment:${comment}`],
        note: `a malformed command on job #${job}; the worker replies`,
      };
    }
    case "review": {
      const review = event.kind === "review" ? event.review.id : 0;
      if (!authority?.mayAct) {
        return {
          actions: [
            {
              kind: "refuse-review",
              job,
              review,
              login: actor.login,
              permission: authority?.permission ?? "none",
            },
          ],
          keys: [`review:${review}`],
          note: `@${actor.login} (${authority?.permission ?? "none"}) may not answer job #${job}'s gate; refused, no run`,
        };
      }
      return {
        actions: [dispatch],
        keys: [`review:${review}`],
        note: `@${actor.login}'s review of job #${job}; the worker judges it`,
      };
    }
    case "review-dismissed": {
      if (event.kind !== "review") throw new Error("cfa/app: a dismissal without a review");
      // Nothing moves: a dismissed review answers no gate, and a gate it answered stays
      // answered. The reviewer hears that once; the worker needs no cue.
      return {
        actions: [
          {
            kind: "reply-dismissed",
            job,
            review: event.review.id,
            reviewer: event.review.author.login,
            dismissedBy: event.sender.login,
            commit: event.review.commitId,
          },
        ],
        keys: [`dismissed:${event.review.id}`],
        note: `@${event.review.author.login}'s review of job #${job} was dismissed`,
      };
    }
    case "pull-closed":
      return {
        actions: [dispatch],
        keys: [],
        note: `job #${job}'s pull request was closed unmerged; the worker re-reads it`,
      };
    default: {
      const never: never = triage.intent;
      throw new Error(`cfa/app: unhandled intent ${String(never)}`);
    }
  }
}

function refuseCommand(
  event: AppEvent,
  job: number,
  comment: number,
  login: string,
  authority: Authority | null,
  command: string | null,
): AppAction {
  const on = event.kind === "comment" ? event.pull?.number : undefined;
  return {
    kind: "refuse-command",
    job,
    ...(on === undefined ? {} : { on }),
    comment,
    login,
    permission: authority?.permission ?? "none",
    command,
  };
}
