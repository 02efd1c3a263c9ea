// The first look at a delivery, before anything is read from GitHub: most comments are
// ordinary conversation and most reviews only comment, and none of them should cost an API
// call. Pure.

import { parseCommand, type CommandParse } from "../comments/commands.js";
import type { AppEvent } from "./app-event.js";

export type Screen = { pass: true } | { pass: false; reason: string };

export function screenEvent(event: AppEvent): Screen {
  switch (event.kind) {
    case "issue":
      // No label at all cannot be the job label (labeled/unlabeled name theirs).
      if (
        (event.action === "opened" || event.action === "closed") &&
        event.issue.labels.length === 0
      ) {
        return { pass: false, reason: "the issue has no label" };
      }
      return { pass: true };
    case "pull-closed":
      return { pass: true };
    case "comment": {
      const parsed = parseCommand(event.comment.body);
      if (parsed === null) return { pass: false, reason: "the comment is not a command" };
      // On a pull request only `/cfa` is read; every other command lives on the job's issue.
      if (event.pull !== undefined && (parsed.ok ? parsed.command.kind : parsed.verb) !== "cfa") {
        return { pass: false, reason: "on a pull request only `/cfa` is read as a command" };
      }
      if (
        event.action === "edited" &&
        event.comment.previousBody !== null &&
        sameCommand(parseCommand(event.comment.previousBody), parsed)
      ) {
        return { pass: false, reason: "the edit did not change the command" };
      }
      return { pass: true };
    }
    case "review":
      // A dismissed review answers no gate (the worker reads reviews as they are when it
      // wakes), but its author gets one line saying what the dismissal means.
      if (event.action === "dismissed") return { pass: true };
      if (event.review.state !== "approved" && event.review.state !== "changes_requested") {
        return { pass: false, reason: `a review that is ${event.review.state} answers no gate` };
      }
      return { pass: true };
    default: {
      const never: never = event;
      throw new Error(`cfa/app: unhandled event ${JSON.stringify(never)}`);
    }
  }
}

function sameCommand(a: CommandParse, b: CommandParse): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
