// The webhook events the app subscribes to; app.yml lists the same events.

export const HANDLED_EVENTS = [
  "issues.opened",
  "issues.labeled",
  "issues.unlabeled",
  "issues.closed",
  "issue_comment.created",
  "issue_comment.edited",
  "pull_request_review.submitted",
  "pull_request_review.dismissed",
  "pull_request.closed",
] as const;
