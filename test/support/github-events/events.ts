// AppEvents for decider tests, built from GitHub's own example payloads through the same
// reader the app uses, so the deciders are tested on what the app really sees.

import { readAppEvent, type AppEvent } from "../../../src/github-events/app-event.js";
import { examplePayload, type ExampleEventName } from "../github/index.js";

const user = (login: string, type: "User" | "Bot" = "User") => ({ login, type });

export function read(name: ExampleEventName, payload: object): AppEvent {
  const result = readAppEvent(name, payload);
  if (!result.ok) throw new Error(`test payload not read: ${result.reason}`);
  return result.event;
}

export function labelled(login: string, type: "User" | "Bot" = "User", issue = 7): AppEvent {
  return read(
    "issues",
    examplePayload("issues", "labeled", {
      label: { name: "cfa" },
      issue: { number: issue, labels: [{ name: "cfa" }] },
      sender: user(login, type),
    }),
  );
}

export function commented(body: string, login: string, type: "User" | "Bot" = "User"): AppEvent {
  return read(
    "issue_comment",
    examplePayload("issue_comment", "created", {
      issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
      comment: { id: 901, body, user: user(login, type) },
      sender: user(login, type),
    }),
  );
}

export function reviewed(
  state: "approved" | "changes_requested" | "commented",
  login: string,
  type: "User" | "Bot" = "User",
): AppEvent {
  return read(
    "pull_request_review",
    examplePayload("pull_request_review", "submitted", {
      review: { id: 501, state, user: user(login, type), commit_id: "a".repeat(40) },
      pull_request: { number: 12, head: { ref: "cfa/7" } },
    }),
  );
}
