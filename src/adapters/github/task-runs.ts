// The TaskRuns port over GitHub's Actions REST API, so that tasks can run on runners of their own.
// - Dispatch: "Create a workflow dispatch event" with `return_run_details: true` answers 200
//   with the new run's `workflow_run_id` (https://github.blog/changelog/2026-02-19-workflow-dispatch-api-now-returns-run-ids;
//   https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event). Its
//   `inputs` take at most 25 properties (the OpenAPI description,
//   test/fixtures/openapi/github-subset.json); the task job has three: job, task, epoch.
// - A workflow without a `task` job refuses the inputs (422: unexpected inputs), a token
//   without `actions: write` gets 403, and GitHub Enterprise Server before the run-details
//   change answers 204 without a run id: each of these is "unavailable", and the job runs its
//   tasks in the lead's run (execute.runners: single), said once in the status comment.
// - State: "Get a workflow run"; a run the API no longer knows (404) is `missing`.
// - Cancel: "Cancel a workflow run" answers 202; a run that completed meanwhile answers 409
//   and a deleted one 404 — both mean there is nothing left to cancel, so both are done (the
//   worker's client never retries either: src/worker/github-client.ts DO_NOT_RETRY).

import * as z from "zod";
import type {
  DispatchResult,
  TaskRunInputs,
  TaskRunState,
  TaskRuns,
} from "../../ports/task-runs.js";

export interface ActionsRequester {
  request(
    route: string,
    params?: Record<string, unknown>,
  ): Promise<{ status?: number; data: unknown }>;
}

const DispatchAnswer = z.object({ workflow_run_id: z.number().int().positive() });
const RunAnswer = z.object({
  status: z.string().nullish(),
  conclusion: z.string().nullish(),
});

function statusOf(error: unknown): number | null {
  const s = (error as { status?: unknown } | null)?.status;
  return typeof s === "number" ? s : null;
}

export function createGitHubTaskRuns(
  github: ActionsRequester,
  at: { owner: string; repo: string; workflow: string; ref: () => Promise<string> },
): TaskRuns {
  const repo = { owner: at.owner, repo: at.repo };
  return {
    async dispatch(inputs: TaskRunInputs): Promise<DispatchResult> {
      let answer: { status?: number; data: unknown };
      try {
        answer = await github.request(
          "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
          {
            ...repo,
            workflow_id: at.workflow,
            ref: await at.ref(),
            inputs: { job: String(inputs.job), task: inputs.task, epoch: String(inputs.epoch) },
            return_run_details: true,
          },
        );
      } catch (error) {
        const status = statusOf(error);
        if (status === 403 || status === 404 || status === 422) {
          return {
            kind: "unavailable",
            reason:
              status === 403
                ? "the work job may not dispatch runs (give it `actions: write`)"
                : `the workflow ${at.workflow} has no \`task\` job taking job, task and epoch`,
          };
        }
        throw error;
      }
      const parsed = DispatchAnswer.safeParse(answer.data);
      if (!parsed.success)
        return { kind: "unavailable", reason: "GitHub did not say which run it started" };
      return { kind: "dispatched", runId: String(parsed.data.workflow_run_id) };
    },

    async state(runId: string): Promise<TaskRunState> {
      try {
        const { data } = await github.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}", {
          ...repo,
          run_id: Number(runId),
        });
        const run = RunAnswer.parse(data);
        return run.status === "completed"
          ? { status: "completed", conclusion: run.conclusion ?? null }
          : { status: "active" };
      } catch (error) {
        if (statusOf(error) === 404) return { status: "missing" };
        throw error;
      }
    },

    async cancel(runId: string): Promise<void> {
      try {
        await github.request("POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel", {
          ...repo,
          run_id: Number(runId),
        });
      } catch (error) {
        // 409: it completed meanwhile; 404: it is gone. Nothing to cancel either way.
        const status = statusOf(error);
        if (status !== 409 && status !== 404) throw error;
      }
    },
  };
}
