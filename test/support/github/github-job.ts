// One repository on a fake GitHub for end-to-end jobs: a bare repository as GitHub's git
// side, the worker's clone of it (as actions/checkout leaves it), the Probot app, and the
// worker run as Actions runs it, with the scripted model.

import { join } from "node:path";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import type { Clock } from "../../../src/ports/clock.js";
import type { Model } from "../../../src/ports/model.js";
import { runWorker } from "../../../src/worker/run-worker.js";
import { toolSetOf } from "../../../src/records/tool-sets.js";
import {
  examplePayload,
  refuseWorkflowPushes,
  TEST_PACING,
  testPrivateKey,
  type TestProbot,
} from "./index.js";
import { startGitHttpServer, type GitHttpRequest, type GitHttpServer } from "./git-http-server.js";
import { createQueuedTestApp } from "./queued-test-app.js";
import { logPushes, readPushLog, type PushedUpdate } from "./push-log-hook.js";
import { git, makeTempRemote } from "../git/temp-repo.js";
import { FakeGitHub, FULL, OWNER, REPO, type ReviewState, type Route } from "./fake-github.js";

export type ReviewStateName = "approved" | "changes_requested" | "commented" | "dismissed";

export const WORKER_TOKEN = "ghs_e2eWorkerToken0123456789abcdef";
export const BOT = "github-actions[bot]";
/** The GitHub App the worker acts as, in `asApp` jobs. */
export const APP_ID = 31337;

/** The worker's clock: a second per reading, and jumps when a test says hours went by. */
export interface JobClock extends Clock {
  advance(ms: number): void;
}

function jobClock(start: string): JobClock {
  let t = Date.parse(start);
  return {
    now: () => {
      const d = new Date(t);
      t += 1000;
      return d;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export { git } from "../git/temp-repo.js";

/**
 * What the worker's first wake of a job calls, up to its gate: the job view (one GraphQL
 * query), the person's permission, the issue's conditional poll, the gate's pull request and
 * review request, the gate's and the status comment, the phase's check.
 */
export const FIRST_WAKE_ROUTES: readonly Route[] = [
  "graphql",
  "permission",
  "issue",
  "create-pull",
  "request-reviewers",
  "create-comment",
  "create-check",
];

/**
 * What a whole job calls, app and worker, from the labelled issue to DONE: the app reads the
 * config (the repository's, then the organisation's), reacts and dispatches; the worker's
 * wakes call FIRST_WAKE_ROUTES, edit the status comment and keep the pull request's body
 * current (merged task branches are deleted by a leased git push, not through the API).
 */
export const WHOLE_JOB_ROUTES: readonly Route[] = [
  "content",
  "org-content",
  "issue-reaction",
  "dispatch",
  ...FIRST_WAKE_ROUTES,
  "update-comment",
  "update-pull",
];

/** `routes` with `plus` added and `minus` taken away. */
export function routesWith(
  routes: readonly Route[],
  change: { plus?: readonly Route[]; minus?: readonly Route[] },
): Route[] {
  const minus = new Set(change.minus ?? []);
  return [...routes.filter((route) => !minus.has(route)), ...(change.plus ?? [])];
}

/** The issue a GitHub job is about: #1, labelled `cfa`; Ana's by default. */
export interface JobIssue {
  title?: string;
  body?: string;
  author?: string;
  /** Who added the label, when not the author (the job is theirs). */
  labeledBy?: string;
}

/** What a test controls of one run beyond its hard signal (a clean stop before it). */
export interface RunOptions {
  /** The run's clean stop (a cancellation's SIGINT). */
  stop?: AbortSignal;
  /** Replaces the run's deadline timer: the test fires it when it chooses. */
  deadlineTimer?: (ms: number, fire: () => void) => () => void;
  /** The worker's arguments instead of `--job <N>` (a task run: `--task`, `--epoch`). */
  args?: string[];
  /** More of this run's environment (e.g. GITHUB_WORKFLOW_REF). */
  env?: Record<string, string>;
}

export interface GitHubJob {
  root: string;
  github: FakeGitHub;
  probot: TestProbot;
  work: string;
  lines: string[];
  clock: JobClock;
  /** What git sent over HTTP, in `asApp` jobs (each fetch and push with its token). */
  gitRequests: GitHttpRequest[];
  /** Each ref update the bare repository took over HTTP, with its token (`asApp` jobs). */
  pushLog(): PushedUpdate[];
  /** Runs the worker as `workflow_dispatch` with inputs { job } would. */
  runWorker(job: number, signal?: AbortSignal, more?: RunOptions): Promise<number>;
  labelled(issue: number, login: string): object;
  reviewed(
    pull: number,
    review: { id: number; login: string; state: string; commitId: string },
  ): object;
  /**
   * A person's review of the job's pull request, as GitHub records it (at the head of cfa/1
   * unless `commitId` says otherwise), delivered to the app; resolves once its cues ran.
   */
  submitReview(
    login: string,
    state?: "APPROVED" | "CHANGES_REQUESTED",
    more?: { commitId?: string; body?: string; comments?: ReviewState["comments"] },
  ): Promise<ReviewState>;
  /** GitHub's pull_request_review.dismissed: the review's state reads "dismissed". */
  dismissed(
    pull: number,
    review: { id: number; login: string; commitId: string },
    by: string,
  ): object;
  cleanup(): Promise<void>;
}

/** Job 1's state.json as the worker last pushed it to cfa/1 on the fake's bare repository. */
export function jobRecord<T = { state: string }>(job: Pick<GitHubJob, "github">): T {
  return JSON.parse(git(job.github.bare, "show", "cfa/1:.cfa/jobs/1/state.json")) as T;
}

export async function createGitHubJob(options: {
  recording: unknown;
  config?: string;
  /**
   * The worker acts as the GitHub App (APP_ID and PRIVATE_KEY, no GITHUB_TOKEN): GitHub
   * checks every API call's token, and the runner's clone reaches GitHub's git side over
   * HTTP, where each fetch and push must carry a token GitHub still takes.
   */
  asApp?: boolean;
  /** Called before each model call, with its number (1, 2…): a turn that takes time. */
  beforeModelCall?: (call: number, clock: JobClock) => void;
  /** More of the runner's environment (e.g. GitHub Enterprise Server's GITHUB_SERVER_URL). */
  env?: Record<string, string>;
  /** Wraps the scripted model (a test that acts while a call is in flight). */
  model?: (scripted: Model) => Model;
  /**
   * The fake GitHub's routes, installed at once (each must be used: no pending mocks), with
   * issue #1 open and labelled and its person given write access. Without it the test
   * installs its own.
   */
  routes?: readonly Route[];
  /** Issue #1 as the routes' set-up opens it; "Greet" by Ana by default. */
  issue?: JobIssue;
}) {
  const remote = makeTempRemote({
    prefix: "cfa-gh-e2e-",
    files: {
      "README.md": "# hello-world\n",
      ...(options.config === undefined ? {} : { ".github/cfa.yml": options.config }),
    },
  });
  const { root, bare } = remote;
  // GitHub refuses workflow changes from a token without the Workflows permission.
  await refuseWorkflowPushes(bare);
  const work = remote.clone("work");
  let runs = 0;

  const github = new FakeGitHub(bare, BOT);
  github.config = options.config ?? null;
  if (options.routes !== undefined) {
    github.install(options.routes);
    const { title = "Greet", body = "x", author = "ana", labeledBy } = options.issue ?? {};
    github.permissions.set(labeledBy ?? author, "write");
    github.openIssue({
      number: 1,
      title,
      body,
      author,
      label: "cfa",
      ...(labeledBy === undefined ? {} : { labeledBy }),
    });
  }
  // receive() resolves once the app's queued cues have run (it answers GitHub before).
  const probot = await createQueuedTestApp({ botLogin: BOT });
  const scripted: Model = createScriptedModel(options.recording, { source: "e2e" });
  const clock = jobClock("2026-11-22T10:00:00.000Z");
  let modelCalls = 0;
  const counted: Model = {
    complete: (request, callOptions) => {
      modelCalls += 1;
      options.beforeModelCall?.(modelCalls, clock);
      return scripted.complete(request, callOptions);
    },
    ...(scripted.limits === undefined ? {} : { limits: (name: string) => scripted.limits!(name) }),
  };
  const model = options.model?.(counted) ?? counted;
  let gitServer: GitHttpServer | undefined;
  const pushLogFile = join(root, "push-log.txt");
  if (options.asApp === true) {
    github.actAsApp(clock, APP_ID);
    await logPushes(bare, pushLogFile);
    gitServer = await startGitHttpServer({
      root,
      accepts: (token) => github.acceptsToken(token),
      // Who pushed, for the push log: the token itself (the fake's own, minted in the test).
      userOf: (token) => token,
    });
  }
  const credentials: Record<string, string> =
    gitServer === undefined
      ? { GITHUB_TOKEN: WORKER_TOKEN }
      : { APP_ID: String(APP_ID), PRIVATE_KEY: testPrivateKey() };
  const lines: string[] = [];
  const repository = { name: REPO, owner: { login: OWNER }, default_branch: "main" };

  const reviewed = (
    pull: number,
    review: { id: number; login: string; state: ReviewStateName; commitId: string },
  ) =>
    examplePayload("pull_request_review", "submitted", {
      repository,
      review: {
        id: review.id,
        state: review.state,
        user: { login: review.login, type: "User" },
        commit_id: review.commitId,
      },
      pull_request: { number: pull, head: { ref: "cfa/1", repo: { full_name: FULL } } },
      sender: { login: review.login, type: "User" },
    });

  return {
    root,
    github,
    probot,
    work,
    lines,
    clock,
    gitRequests: gitServer?.requests ?? [],
    pushLog: () => (gitServer === undefined ? [] : readPushLog(pushLogFile)),
    // Every run on a fresh runner: a new clone (as actions/checkout makes) and RUNNER_TEMP.
    runWorker: (job: number, signal?: AbortSignal, options_: RunOptions = {}) => {
      const { args, env: runEnv, ...more } = options_;
      runs += 1;
      const clone = remote.clone(`run-${runs}`);
      if (gitServer !== undefined) {
        git(clone, "remote", "set-url", "origin", `${gitServer.url}/github.git`);
      }
      return runWorker(
        args ?? ["--job", String(job)],
        {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: root,
          GITHUB_REPOSITORY: FULL,
          ...credentials,
          GITHUB_WORKSPACE: clone,
          RUNNER_TEMP: join(root, `runner-${runs}`),
          GITHUB_RUN_ID: "4242",
          GITHUB_RUN_ATTEMPT: "1",
          ANTHROPIC_API_KEY: "sk-ant-e2e-unused",
          ...options.env,
          ...runEnv,
        },
        {
          model,
          // The recording's tools (tool-sets.ts): these were all made with the unnamed set.
          toolSet: toolSetOf((options.recording as { toolSet?: unknown } | null)?.toolSet),
          clock,
          print: (line) => lines.push(line),
          githubPacing: TEST_PACING,
          ...(signal ? { signal } : {}),
          ...more,
        },
      );
    },
    labelled: (issue: number, login: string) =>
      examplePayload("issues", "labeled", {
        repository,
        label: { name: "cfa" },
        issue: { number: issue, labels: [{ name: "cfa" }], state: "open" },
        sender: { login, type: "User" },
      }),
    reviewed,
    async submitReview(
      login: string,
      state: "APPROVED" | "CHANGES_REQUESTED" = "APPROVED",
      more: { commitId?: string; body?: string; comments?: ReviewState["comments"] } = {},
    ) {
      const pull = github.pulls[0]!;
      const review = github.review({
        pull: pull.number,
        login,
        state,
        commitId: more.commitId ?? github.head("cfa/1"),
        ...(more.body === undefined ? {} : { body: more.body }),
        ...(more.comments === undefined ? {} : { comments: more.comments }),
      });
      await probot.receive(
        "pull_request_review",
        reviewed(pull.number, {
          id: review.id,
          login,
          state: state === "APPROVED" ? "approved" : "changes_requested",
          commitId: review.commitId,
        }),
      );
      return review;
    },
    dismissed: (
      pull: number,
      review: { id: number; login: string; commitId: string },
      by: string,
    ) =>
      examplePayload("pull_request_review", "dismissed", {
        repository,
        review: {
          id: review.id,
          state: "dismissed",
          user: { login: review.login, type: "User" },
          commit_id: review.commitId,
        },
        pull_request: { number: pull, head: { ref: "cfa/1", repo: { full_name: FULL } } },
        sender: { login: by, type: "User" },
      }),
    cleanup: async () => {
      await gitServer?.close();
      remote.cleanup();
    },
  } satisfies GitHubJob;
}
