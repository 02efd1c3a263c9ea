// A cancel of a finished task run costs one request: the lead's TaskRuns port
// (src/adapters/github/task-runs.ts) over the worker's real Octokit (src/worker/github-client.ts:
// @octokit/plugin-retry and plugin-throttling as in production, their waits shrunk), against
// the fake GitHub served over HTTP, which answers "Cancel a workflow run" with 409 for a run
// that completed and 404 for one it does not know (as GitHub does:
// https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run) and counts what
// arrives. The control: the plugin's default `doNotRetry` retries the same 409.

import { Octokit } from "@octokit/rest";
import { retry } from "@octokit/plugin-retry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGitHubTaskRuns } from "../../../src/adapters/github/index.js";
import { noopLogger } from "../../../src/ports/logger.js";
import { createWorkerGitHub } from "../../../src/worker/github-client.js";
import { FakeGitHub, OWNER, REPO } from "../../support/github/fake-github.js";
import { TEST_PACING } from "../../support/github/test-pacing.js";

let github: FakeGitHub;
let served: Awaited<ReturnType<FakeGitHub["serve"]>>;

beforeAll(async () => {
  github = new FakeGitHub("/nonexistent-bare", "github-actions[bot]");
  served = await github.serve();
});
afterAll(async () => served.close());

function taskRuns(requester: Parameters<typeof createGitHubTaskRuns>[0]) {
  return createGitHubTaskRuns(requester, {
    owner: OWNER,
    repo: REPO,
    workflow: "cfa.yml",
    ref: async () => "main",
  });
}

const workerClient = () =>
  createWorkerGitHub({
    credentials: { kind: "token", token: "ghs_cancelAnswersToken0000000001" },
    baseUrl: served.url,
    logger: noopLogger,
    pacing: TEST_PACING,
  });

/** A run GitHub started for a dispatch, then moved to `status`. */
async function runThat(status: "completed" | "in_progress"): Promise<string> {
  const dispatched = await taskRuns(workerClient()).dispatch({ job: 1, task: "t", epoch: 1 });
  if (dispatched.kind !== "dispatched") throw new Error("the fake did not start a run");
  const run = github.runs.get(Number(dispatched.runId))!;
  run.status = status;
  run.conclusion = status === "completed" ? "success" : null;
  return dispatched.runId;
}

const cancels = () => github.answered.filter((a) => a.route === "cancel-run");

describe("a cancel of a finished task run is one request", () => {
  it("409 (completed meanwhile) and 404 (a deleted run): each is answered by one request, and the cancel is done", async () => {
    const runs = taskRuns(workerClient());
    const completed = await runThat("completed");
    const before = cancels().length;
    await runs.cancel(completed);
    expect(cancels().slice(before)).toEqual([{ route: "cancel-run", status: 409 }]);

    await runs.cancel("987654");
    expect(cancels().slice(before)).toEqual([
      { route: "cancel-run", status: 409 },
      { route: "cancel-run", status: 404 },
    ]);

    // A run still going is cancelled (202), once.
    const going = await runThat("in_progress");
    await runs.cancel(going);
    expect(cancels().slice(before + 2)).toEqual([{ route: "cancel-run", status: 202 }]);
    expect(served.invalid).toEqual([]);
  });

  it("control: with plugin-retry's default doNotRetry the same 409 is sent again and again (1 + 3 retries)", async () => {
    const RetryingOctokit = Octokit.plugin(retry);
    const defaults = new RetryingOctokit({
      baseUrl: served.url,
      auth: "ghs_cancelAnswersToken0000000001",
      retry: { retryAfterBaseValue: 1 },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    const completed = await runThat("completed");
    const before = cancels().length;
    await taskRuns(defaults).cancel(completed);
    expect(
      cancels()
        .slice(before)
        .map((c) => c.status),
    ).toEqual([409, 409, 409, 409]);
  });
});
