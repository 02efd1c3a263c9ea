// The fake GitHub's task runs (tasks in workflow runs of their own), through the real TaskRuns
// client and a real Octokit, every request checked against GitHub's OpenAPI description: a
// dispatch with return_run_details answers the run's id and the fake keeps its inputs; a run's
// state is what the test makes it; a cancel completes it, and a second cancel is GitHub's 409.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitHubTaskRuns } from "../../../../src/adapters/github/index.js";
import { useGitHubMocks } from "../../../support/github/index.js";
import { FakeGitHub, OWNER, REPO } from "../../../support/github/fake-github.js";

describe("the fake GitHub's task runs", () => {
  useGitHubMocks();
  let dir: string;
  let github: FakeGitHub;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cfa-fake-runs-"));
    github = new FakeGitHub(join(dir, "unused.git"), "github-actions[bot]");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const runs = () =>
    createGitHubTaskRuns(new Octokit({ auth: "ghs_fakeRunsToken000000000000000" }), {
      owner: OWNER,
      repo: REPO,
      workflow: "cfa.yml",
      ref: () => Promise.resolve("main"),
    });

  it("dispatches with the run's id, keeps the inputs, tells the run's state and cancels it once", async () => {
    github.install(["dispatch", "get-run", "cancel-run"]);
    const r = runs();
    const a = await r.dispatch({ job: 1, task: "api", epoch: 1 });
    const b = await r.dispatch({ job: 1, task: "db", epoch: 1 });
    expect(a.kind).toBe("dispatched");
    expect(b.kind).toBe("dispatched");
    expect(github.dispatchInputs).toEqual([
      { job: "1", task: "api", epoch: "1" },
      { job: "1", task: "db", epoch: "1" },
    ]);
    const id = a.kind === "dispatched" ? a.runId : "";
    expect(await r.state(id)).toEqual({ status: "active" });
    github.runs.get(Number(id))!.status = "in_progress";
    expect(await r.state(id)).toEqual({ status: "active" });
    await r.cancel(id);
    expect(await r.state(id)).toEqual({ status: "completed", conclusion: "cancelled" });
    await r.cancel(id); // 409: completed meanwhile, left alone
    expect(await r.state("999999")).toEqual({ status: "missing" });
  });

  it("a repository whose token may not dispatch (403) is unavailable: the job would run single", async () => {
    github.install(["dispatch"]);
    github.failures.set("dispatch", {
      status: 403,
      message: "Resource not accessible by integration",
    });
    expect(await runs().dispatch({ job: 1, task: "api", epoch: 1 })).toMatchObject({
      kind: "unavailable",
      reason: expect.stringContaining("actions: write"),
    });
  });
});
