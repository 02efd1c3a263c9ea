// CueEffects over GitHub's REST API, through any Octokit (Probot's installation client or
// @octokit/rest with the workflow's token). Responses are validated before use.

import * as z from "zod";
import { statusOf, toActor } from "../adapters/github/index.js";
import { outboundText } from "../comments/outbound-text.js";
import { redact } from "../secrets/index.js";
import type { CueEffects } from "./cue-effects.js";
import { runTitle } from "./run-title.js";

/** The two Octokit methods the app uses; both Octokits fit it. */
export interface GitHubRequester {
  request(route: string, params?: Record<string, unknown>): Promise<{ data: unknown }>;
  paginate(route: string, params?: Record<string, unknown>): Promise<unknown[]>;
}

export interface RepoCoordinates {
  owner: string;
  repo: string;
}

const RunsSchema = z.object({
  workflow_runs: z.array(
    z.object({ id: z.number(), display_title: z.string().nullish(), status: z.string().nullish() }),
  ),
});

const CommentSchema = z.object({
  body: z.string().nullish(),
  user: z.object({ login: z.string(), type: z.string() }).nullish(),
});

/** Runs of one job in flight at once are few; a page of recent ones finds them. */
const RUNS_PAGE = 100;

/**
 * A run not yet finished, in any of the states GitHub gives one before it completes: queued,
 * waiting (for a concurrency group or an environment), pending, requested, in progress
 * (the `status` values of "List workflow runs for a workflow",
 * https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow,
 * whose OpenAPI description is test/fixtures/openapi/github-subset.json). /withdraw cancels
 * them all: a queued `cfa job #N` run would otherwise start after the withdrawal.
 */
export const ACTIVE_RUN_STATUSES = [
  "queued",
  "waiting",
  "pending",
  "requested",
  "in_progress",
] as const;

export function createGitHubCues(github: GitHubRequester, at: RepoCoordinates): CueEffects {
  const repo = { owner: at.owner, repo: at.repo };
  return {
    async react(target) {
      if ("comment" in target) {
        await github.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
          ...repo,
          comment_id: target.comment,
          content: "eyes",
        });
      } else {
        await github.request("POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", {
          ...repo,
          issue_number: target.issue,
          content: "eyes",
        });
      }
    },
    async dispatch(workflow, ref, job) {
      await github.request(
        "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
        { ...repo, workflow_id: workflow, ref, inputs: { job: String(job) } },
      );
    },
    async activeRuns(workflow, job) {
      const { data } = await github.request(
        "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
        {
          ...repo,
          workflow_id: workflow,
          event: "workflow_dispatch",
          per_page: RUNS_PAGE,
        },
      );
      // One page of the newest runs, every status, filtered here: the API's `status` takes one
      // value, and five requests per /withdraw would find nothing more (a job's unfinished
      // runs are among its newest). A run whose status is missing is cancelled too: a
      // cancel of a finished run answers 409, which cancelRun takes as done.
      const active = new Set<string>(ACTIVE_RUN_STATUSES);
      const runs = parse(RunsSchema, data, "actions/list-workflow-runs");
      return runs.workflow_runs
        .filter((r) => r.display_title === runTitle(job))
        .filter((r) => r.status === null || r.status === undefined || active.has(r.status))
        .map((r) => r.id);
    },
    async cancelRun(id) {
      try {
        await github.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel", {
          ...repo,
          run_id: id,
        });
      } catch (error) {
        // 409: the run finished between listing and cancelling; nothing left to stop.
        if (statusOf(error) === 409) return;
        throw error;
      }
    },
    async listComments(issue) {
      const items = await github.paginate(
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
        {
          ...repo,
          issue_number: issue,
          per_page: 100,
        },
      );
      return parse(z.array(CommentSchema), items, "issues/list-comments").map((c) => ({
        author: toActor(c.user ?? null),
        body: c.body ?? "",
      }));
    },
    async pullHead(number) {
      try {
        const { data } = await github.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
          ...repo,
          pull_number: number,
        });
        const pull = parse(PullHeadSchema, data, "pulls/get");
        return { ref: pull.head.ref, repo: pull.head.repo?.full_name ?? null };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async createComment(issue, body) {
      await github.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: issue,
        // Nothing the bot posts carries a secret (docs/contributing.md, "Conventions"), pings
        // anyone or closes an issue but by the template's own mark.
        body: outboundText(redact(body, "a comment")),
      });
    },
  };
}

/** What a pull request names of its head (https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request). */
const PullHeadSchema = z.object({
  head: z.object({
    ref: z.string(),
    // null when the fork the pull request came from was deleted.
    repo: z.object({ full_name: z.string() }).nullish(),
  }),
});

function parse<S extends z.ZodType>(schema: S, data: unknown, operation: string): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new Error(
    `cfa/app: ${operation} returned a response the app cannot read: ${z
      .prettifyError(parsed.error)
      .replace(/\n/g, "; ")}; GitHub's API may have changed: report it with the operation name`,
  );
}
