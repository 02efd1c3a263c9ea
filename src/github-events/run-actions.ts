// Runs a delivery's effects now, in the order decided: cancel, cue, then acknowledge (a run
// dispatched before the cancel could be cancelled with the others). The worker's
// Actions-only route runs them so; the webhook server queues them instead (src/app/).

import type { HiddenBlock } from "../comments/hidden-block.js";
import type { Logger } from "../ports/logger.js";
import type { AppAction } from "./app-action.js";
import type { CueEffects } from "./cue-effects.js";
import { postOnce } from "./post-once.js";
import { dismissedReviewComment, isSameDismissal } from "../comments/dismissed-review-comment.js";
import { isSameStartRefusal, startRefusalComment } from "../comments/start-refusal-comment.js";
import {
  commandRefusalComment,
  isSameCommandRefusal,
  isSameReviewRefusal,
  reviewRefusalComment,
} from "../comments/outsider-refusal-comment.js";

export interface ActionContext {
  effects: CueEffects;
  /** The worker workflow's file name, e.g. cfa.yml. */
  workflow: string;
  /** The default branch: workflow_dispatch runs the workflow as it is there. */
  ref: string;
  delivery: string;
  logger: Logger;
  /** The logins the bot posts as (post-once.ts); asked only when a comment is posted. */
  botLogins(): Promise<readonly string[]>;
}

export async function runActions(actions: readonly AppAction[], at: ActionContext): Promise<void> {
  for (const action of actions) {
    switch (action.kind) {
      case "react":
        await at.effects.react(action.target);
        break;
      case "cancel-runs": {
        const runs = await at.effects.activeRuns(at.workflow, action.job);
        for (const id of runs) await at.effects.cancelRun(id);
        if (runs.length > 0) {
          at.logger.info(`cfa/app: cancelled job #${action.job}'s runs ${runs.join(", ")}`);
        }
        break;
      }
      case "dispatch":
        await at.effects.dispatch(at.workflow, at.ref, action.job);
        break;
      case "refuse-start":
      case "refuse-command":
      case "refuse-review":
      case "reply-dismissed": {
        const { body, same } = replyTo(action, at.delivery);
        // A reply goes where the person wrote (a `/cfa` on the pull request: there).
        const on = action.kind === "refuse-command" ? (action.on ?? action.job) : action.job;
        await postOnce(at.effects, on, body, same, await at.botLogins(), action.job);
        break;
      }
      default: {
        const never: never = action;
        throw new Error(`cfa/app: unhandled action ${JSON.stringify(never)}`);
      }
    }
  }
}

type ReplyAction = Extract<
  AppAction,
  { kind: "refuse-start" | "refuse-command" | "refuse-review" | "reply-dismissed" }
>;

/** The comment an action replies with, and how to know it is on the issue already (post-once.ts). */
function replyTo(
  action: ReplyAction,
  delivery: string,
): { body: string; same: (block: HiddenBlock) => boolean } {
  switch (action.kind) {
    case "refuse-start":
      return {
        body: startRefusalComment({ ...action, delivery }),
        same: isSameStartRefusal(delivery),
      };
    case "refuse-command":
      return { body: commandRefusalComment(action), same: isSameCommandRefusal(action.comment) };
    case "refuse-review":
      return { body: reviewRefusalComment(action), same: isSameReviewRefusal(action.review) };
    case "reply-dismissed":
      return { body: dismissedReviewComment(action), same: isSameDismissal(action.review) };
    default: {
      const never: never = action;
      throw new Error(`cfa/app: unhandled reply ${JSON.stringify(never)}`);
    }
  }
}
