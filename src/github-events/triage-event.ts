// The second look, with the repository's configuration: is this about a job, who is acting,
// and does their live permission decide anything? Pure.

import type { CfaConfig } from "../config/index.js";
import { parseCommand, type Command } from "../comments/commands.js";
import type { Actor } from "../ports/forge.js";
import type { AppEvent } from "./app-event.js";

export const INTENTS = [
  "start",
  "stop",
  "command",
  "bad-command",
  "review",
  "review-dismissed",
  "pull-closed",
] as const;
export type Intent = (typeof INTENTS)[number];

export type Triage =
  | { act: false; reason: string }
  | {
      act: true;
      job: number;
      intent: Intent;
      /** The person whose authority the effects depend on (the author, for a comment). */
      actor: Actor;
      /** True when the actor's live permission changes what the app does. */
      needsAuthority: boolean;
      command: Command | null;
    };

export function triageEvent(
  event: AppEvent,
  config: Pick<CfaConfig, "label" | "allowBots">,
): Triage {
  const actor = actorOf(event);
  // The app's own comments are a bot's too (the bot ignores itself and other bots but allowBots).
  if (actor.type === "Bot" && !config.allowBots.some((b) => sameLogin(b, actor.login))) {
    return { act: false, reason: `@${actor.login} is a bot not listed in allowBots` };
  }
  const base = { act: true as const, actor, command: null };
  switch (event.kind) {
    case "issue": {
      const labelled = event.issue.labels.includes(config.label);
      const job = event.issue.number;
      const action = event.action;
      switch (action) {
        case "opened":
          if (!labelled)
            return { act: false, reason: `the issue has no \`${config.label}\` label` };
          return { ...base, job, intent: "start", needsAuthority: true };
        case "labeled":
          if (event.label !== config.label)
            return { act: false, reason: `the label is not \`${config.label}\`` };
          if (event.issue.state !== "open") return { act: false, reason: "the issue is closed" };
          return { ...base, job, intent: "start", needsAuthority: true };
        case "unlabeled":
          if (event.label !== config.label)
            return { act: false, reason: `the label is not \`${config.label}\`` };
          // GitHub lets only triage and above change labels; the worker withdraws the job when
          // it finds the label gone (README, "How a job works": withdrawal ← the label
          // removed).
          return { ...base, job, intent: "stop", needsAuthority: false };
        case "closed":
          if (!labelled)
            return { act: false, reason: `the issue has no \`${config.label}\` label` };
          // Only the issue's author or triage and above can close it (Terminate ← closed).
          return { ...base, job, intent: "stop", needsAuthority: false };
        default: {
          const never: never = action;
          throw new Error(`cfa/app: unhandled issues action ${String(never)}`);
        }
      }
    }
    case "comment": {
      const parsed = parseCommand(event.comment.body);
      if (parsed === null) return { act: false, reason: "the comment is not a command" };
      // `/cfa` on the job's pull request (screen-event.ts lets no other command through there):
      // its job is the pull request's branch's; the worker reads the issue and its label.
      const pull = event.pull;
      const onIssue = pull === undefined;
      if (!onIssue && pull.job === null) {
        return { act: false, reason: "the pull request's job is not known" };
      }
      const job = pull?.job ?? event.issue.number;
      if (onIssue && !event.issue.labels.includes(config.label))
        return { act: false, reason: `the issue has no \`${config.label}\` label` };
      // A closed issue takes no command, but `/cfa` gets its answer from the worker (a merged
      // pull request: open a new issue; a closed one: reopen it first).
      const verb = parsed.ok ? parsed.command.kind : parsed.verb;
      if (onIssue && event.issue.state !== "open" && verb !== "cfa") {
        return { act: false, reason: "the issue is closed" };
      }
      if (!parsed.ok) {
        // The worker answers a malformed command when it reads it; the app only cues it,
        // and only for someone whose commands would count (anyone else gets
        // the app's one reply and no run).
        return { ...base, job, intent: "bad-command", needsAuthority: true };
      }
      return { ...base, job, intent: "command", needsAuthority: true, command: parsed.command };
    }
    case "review":
      if (event.action === "dismissed") {
        return { ...base, job: event.job, intent: "review-dismissed", needsAuthority: false };
      }
      // The worker judges a review when it wakes (write access live, not a bot, not the
      // PR's author, the gate's commit) and gives the one-line reason when it does not
      // count. The app judges authority first: a reviewer
      // without it gets the app's one reply and no run, and the worker skips that review.
      return { ...base, job: event.job, intent: "review", needsAuthority: true };
    case "pull-closed":
      if (event.merged) {
        return { act: false, reason: "a merged job pull request closes the job's issue itself" };
      }
      return { ...base, job: event.job, intent: "pull-closed", needsAuthority: false };
    default: {
      const never: never = event;
      throw new Error(`cfa/app: unhandled event ${JSON.stringify(never)}`);
    }
  }
}

export function actorOf(event: AppEvent): Actor {
  switch (event.kind) {
    case "issue":
    case "pull-closed":
      return event.sender;
    case "comment":
      // The author, not the editor: the worker checks the author's permission too.
      return event.comment.author;
    case "review":
      return event.review.author;
    default: {
      const never: never = event;
      throw new Error(`cfa/app: unhandled event ${JSON.stringify(never)}`);
    }
  }
}

function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
