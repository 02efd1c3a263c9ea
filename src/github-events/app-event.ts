// The webhook payload fields the app relies on, validated where they enter (README,
// "Conventions"), and normalised into one small union the deciders read. Everything else
// GitHub sends is dropped. The same reader serves the Probot app and the worker's
// Actions-only mode, which reads the event file Actions names in GITHUB_EVENT_PATH.

import * as z from "zod";
import { toActor } from "../adapters/github/index.js";
import type { Actor } from "../ports/forge.js";
import { AppEventError } from "./app-event-error.js";
import { jobOfBranch } from "./job-branch.js";

const UserSchema = z
  .object({ login: z.string(), type: z.string() })
  .nullish()
  // A deleted account arrives as null: GitHub shows it as "ghost", a user with no rights.
  .transform((user): Actor => toActor(user ?? null));

const LabelSchema = z.object({ name: z.string() });

const IssueSchema = z.object({
  number: z.number().int().positive(),
  state: z.enum(["open", "closed"]),
  labels: z.array(LabelSchema).default(() => []),
  user: UserSchema,
  // Present when the "issue" is a pull request (issue_comment fires for both).
  pull_request: z.unknown().optional(),
});

const RepositorySchema = z.object({
  name: z.string(),
  full_name: z.string(),
  owner: z.object({ login: z.string() }),
  default_branch: z.string(),
});

const BaseSchema = z.object({ repository: RepositorySchema, sender: UserSchema });

const IssuesSchema = BaseSchema.extend({
  action: z.enum(["opened", "labeled", "unlabeled", "closed"]),
  issue: IssueSchema,
  label: LabelSchema.nullish(),
});

const IssueCommentSchema = BaseSchema.extend({
  action: z.enum(["created", "edited"]),
  issue: IssueSchema,
  comment: z.object({
    id: z.number().int().positive(),
    body: z.string().nullish(),
    user: UserSchema,
  }),
  changes: z.object({ body: z.object({ from: z.string() }).optional() }).optional(),
});

const PullRequestRefSchema = z.object({
  number: z.number().int().positive(),
  head: z.object({
    ref: z.string(),
    // null when the fork the pull request came from was deleted.
    repo: z.object({ full_name: z.string() }).nullish(),
  }),
  merged: z.boolean().nullish(),
});

const ReviewSchema = BaseSchema.extend({
  action: z.enum(["submitted", "dismissed"]),
  review: z.object({
    id: z.number().int().positive(),
    // Webhooks spell review states in lower case, unlike the REST API.
    state: z.string().transform((s) => s.toLowerCase()),
    user: UserSchema,
    commit_id: z.string().nullish(),
  }),
  pull_request: PullRequestRefSchema,
});

const PullRequestSchema = BaseSchema.extend({
  action: z.literal("closed"),
  pull_request: PullRequestRefSchema,
});

export interface RepoRef {
  owner: string;
  repo: string;
  defaultBranch: string;
}

export interface IssueRef {
  number: number;
  state: "open" | "closed";
  labels: string[];
  author: Actor;
}

export const APP_EVENT_KINDS = ["issue", "comment", "review", "pull-closed"] as const;
export type AppEventKind = (typeof APP_EVENT_KINDS)[number];

export type AppEvent =
  | {
      kind: "issue";
      action: "opened" | "labeled" | "unlabeled" | "closed";
      issue: IssueRef;
      /** The label added or removed (labeled/unlabeled only). */
      label: string | null;
      sender: Actor;
    }
  | {
      kind: "comment";
      action: "created" | "edited";
      issue: IssueRef;
      comment: { id: number; body: string; author: Actor; previousBody: string | null };
      sender: Actor;
      /**
       * Set when the comment is on a pull request (`issue` is then the pull request): only
       * `/cfa` is read there, for the job whose branch `cfa/<N>` the pull request is from —
       * null until the pull request is looked up (handle-delivery.ts).
       */
      pull?: { number: number; job: number | null };
    }
  | {
      kind: "review";
      action: "submitted" | "dismissed";
      /** The job the pull request's head branch `cfa/<N>` belongs to. */
      job: number;
      pull: number;
      review: { id: number; state: string; author: Actor; commitId: string | null };
      sender: Actor;
    }
  | { kind: "pull-closed"; job: number; pull: number; merged: boolean; sender: Actor };

export type ReadEvent =
  | { ok: true; repo: RepoRef; event: AppEvent }
  /** Not an event the app acts on (another action, a fork's branch…), with why. */
  | { ok: false; reason: string };

/** Reads one webhook delivery; throws only when a payload the app handles is malformed. */
export function readAppEvent(name: string, payload: unknown): ReadEvent {
  switch (name) {
    case "issues":
      return readIssues(payload);
    case "issue_comment":
      return readComment(payload);
    case "pull_request_review":
      return readReview(payload);
    case "pull_request":
      return readPullClosed(payload);
    default:
      return { ok: false, reason: `the app does not handle ${name} events` };
  }
}

function actionOf(payload: unknown): string {
  const action = (payload as { action?: unknown } | null)?.action;
  return typeof action === "string" ? action : "?";
}

function parse<S extends z.ZodType>(schema: S, name: string, payload: unknown): z.infer<S> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  throw new AppEventError(
    `cfa/app: a ${name}.${actionOf(payload)} payload is missing fields the app needs: ${z
      .prettifyError(parsed.error)
      .replace(
        /\n/g,
        "; ",
      )}; GitHub's webhook format may have changed: report it with the event name`,
  );
}

function readIssues(payload: unknown): ReadEvent {
  const action = actionOf(payload);
  if (!["opened", "labeled", "unlabeled", "closed"].includes(action)) {
    return { ok: false, reason: `issues.${action} changes nothing for a job` };
  }
  const p = parse(IssuesSchema, "issues", payload);
  return {
    ok: true,
    repo: repoRef(p.repository),
    event: {
      kind: "issue",
      action: p.action,
      issue: issueRef(p.issue),
      label: p.label?.name ?? null,
      sender: p.sender,
    },
  };
}

function readComment(payload: unknown): ReadEvent {
  const action = actionOf(payload);
  if (action !== "created" && action !== "edited") {
    return { ok: false, reason: `issue_comment.${action} changes nothing for a job` };
  }
  const p = parse(IssueCommentSchema, "issue_comment", payload);
  // issue_comment fires for pull requests too: their `issue` carries `pull_request`
  // (https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment). Only
  // `/cfa` is read on a job's pull request (screen-event.ts); the job is its head branch's.
  const onPull = p.issue.pull_request !== undefined && p.issue.pull_request !== null;
  return {
    ok: true,
    repo: repoRef(p.repository),
    event: {
      kind: "comment",
      action: p.action,
      issue: issueRef(p.issue),
      comment: {
        id: p.comment.id,
        body: p.comment.body ?? "",
        author: p.comment.user,
        previousBody: p.changes?.body?.from ?? null,
      },
      sender: p.sender,
      ...(onPull ? { pull: { number: p.issue.number, job: null } } : {}),
    },
  };
}

function jobPull(
  pull: z.infer<typeof PullRequestRefSchema>,
  repository: z.infer<typeof RepositorySchema>,
): { job: number } | { reason: string } {
  const job = jobOfBranch(pull.head.ref);
  if (job === null) return { reason: `pull request #${pull.number} is not a job's (cfa/<N>)` };
  // A fork can name a branch cfa/<N> too; only the repository's own branch is the job's.
  if (pull.head.repo?.full_name !== repository.full_name) {
    return { reason: `pull request #${pull.number} comes from another repository` };
  }
  return { job };
}

function readReview(payload: unknown): ReadEvent {
  return readJobPull(
    payload,
    "pull_request_review",
    ["submitted", "dismissed"],
    ReviewSchema,
    (p, job) => ({
      kind: "review",
      action: p.action,
      job,
      pull: p.pull_request.number,
      review: {
        id: p.review.id,
        state: p.review.state,
        author: p.review.user,
        commitId: p.review.commit_id ?? null,
      },
      sender: p.sender,
    }),
  );
}

function readPullClosed(payload: unknown): ReadEvent {
  return readJobPull(payload, "pull_request", ["closed"], PullRequestSchema, (p, job) => ({
    kind: "pull-closed",
    job,
    pull: p.pull_request.number,
    merged: p.pull_request.merged === true,
    sender: p.sender,
  }));
}

/** An event on a job's own pull request with one of `actions`; any other changes nothing. */
function readJobPull<
  S extends z.ZodType<{
    pull_request: z.infer<typeof PullRequestRefSchema>;
    repository: z.infer<typeof RepositorySchema>;
  }>,
>(
  payload: unknown,
  name: string,
  actions: readonly string[],
  schema: S,
  event: (p: z.infer<S>, job: number) => AppEvent,
): ReadEvent {
  const action = actionOf(payload);
  if (!actions.includes(action)) {
    return { ok: false, reason: `${name}.${action} changes nothing for a job` };
  }
  const p = parse(schema, name, payload);
  const owned = jobPull(p.pull_request, p.repository);
  if ("reason" in owned) return { ok: false, reason: owned.reason };
  return { ok: true, repo: repoRef(p.repository), event: event(p, owned.job) };
}

function repoRef(repository: z.infer<typeof RepositorySchema>): RepoRef {
  return {
    owner: repository.owner.login,
    repo: repository.name,
    defaultBranch: repository.default_branch,
  };
}

function issueRef(issue: z.infer<typeof IssueSchema>): IssueRef {
  return {
    number: issue.number,
    state: issue.state,
    labels: issue.labels.map((l) => l.name),
    author: issue.user,
  };
}
