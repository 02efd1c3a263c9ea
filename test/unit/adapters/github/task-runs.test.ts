// The TaskRuns port over GitHub's REST API (tasks run in workflow runs of their own), through a
// real Octokit against nock scopes that validate every request against GitHub's OpenAPI
// description.

import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { createGitHubTaskRuns } from "../../../../src/adapters/github/index.js";
import { expectBody, nockGitHub, useGitHubMocks } from "../../../support/github/index.js";

const R = "/repos/octo/hello";

function runs() {
  const octokit = new Octokit({ auth: "ghs_taskRunsTokenTaskRuns0001" });
  return createGitHubTaskRuns(octokit, {
    owner: "octo",
    repo: "hello",
    workflow: "cfa.yml",
    ref: () => Promise.resolve("main"),
  });
}

describe("task runs on GitHub", () => {
  useGitHubMocks();

  it("dispatches the task job with job, task and epoch and return_run_details, and gets its run id", async () => {
    nockGitHub()
      .post(
        `${R}/actions/workflows/cfa.yml/dispatches`,
        expectBody({
          ref: "main",
          inputs: { job: "7", task: "parser", epoch: "2" },
          return_run_details: true,
        }),
      )
      .reply(200, {
        workflow_run_id: 4242,
        run_url: "https://api.github.com/repos/octo/hello/actions/runs/4242",
        html_url: "https://github.com/octo/hello/actions/runs/4242",
      });
    expect(await runs().dispatch({ job: 7, task: "parser", epoch: 2 })).toEqual({
      kind: "dispatched",
      runId: "4242",
    });
  });

  it("a 403 (no actions: write), a 422 (no task job's inputs) and a 204 without a run id are unavailable: the job runs single", async () => {
    const scope = nockGitHub();
    scope
      .post(`${R}/actions/workflows/cfa.yml/dispatches`)
      .reply(403, { message: "Resource not accessible by integration" });
    scope
      .post(`${R}/actions/workflows/cfa.yml/dispatches`)
      .reply(422, { message: 'Unexpected inputs provided: ["task", "epoch"]' });
    scope.post(`${R}/actions/workflows/cfa.yml/dispatches`).reply(204);
    const r = runs();
    const results = [
      await r.dispatch({ job: 7, task: "a", epoch: 1 }),
      await r.dispatch({ job: 7, task: "a", epoch: 1 }),
      await r.dispatch({ job: 7, task: "a", epoch: 1 }),
    ];
    expect(results.map((x) => x.kind)).toEqual(["unavailable", "unavailable", "unavailable"]);
    expect(results[0]).toMatchObject({ reason: expect.stringContaining("actions: write") });
    expect(results[1]).toMatchObject({ reason: expect.stringContaining("no `task` job") });
  });

  it("reads a run's state by id: active, completed with its conclusion, missing", async () => {
    const scope = nockGitHub();
    scope.get(`${R}/actions/runs/11`).reply(200, { id: 11, status: "queued", conclusion: null });
    scope
      .get(`${R}/actions/runs/12`)
      .reply(200, { id: 12, status: "completed", conclusion: "failure" });
    scope.get(`${R}/actions/runs/13`).reply(404, { message: "Not Found" });
    const r = runs();
    expect(await r.state("11")).toEqual({ status: "active" });
    expect(await r.state("12")).toEqual({ status: "completed", conclusion: "failure" });
    expect(await r.state("13")).toEqual({ status: "missing" });
  });

  it("cancels a run; one that completed meanwhile (409) is left alone", async () => {
    const scope = nockGitHub();
    scope.post(`${R}/actions/runs/11/cancel`).reply(202, {});
    scope
      .post(`${R}/actions/runs/12/cancel`)
      .reply(409, { message: "Cannot cancel a workflow run that is completed." });
    await runs().cancel("11");
    await runs().cancel("12");
  });
});
