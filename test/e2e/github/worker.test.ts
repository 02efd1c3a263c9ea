// The worker's own duties around a wake: a failure is posted once on the issue, redacted, and the
// run exits non-zero; a bad config gets the one comment the app would post and no job starts; a
// start nobody allowed creates nothing.

import { describe, expect, it } from "vitest";
import { configErrorComment } from "../../../src/comments/config-error-comment.js";
import { parseConfig } from "../../../src/config/index.js";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { recording } from "../../support/engine/script.js";
import { type Route } from "../../support/github/fake-github.js";
import {
  FIRST_WAKE_ROUTES,
  WORKER_TOKEN,
  type GitHubJob,
} from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { happyRecording } from "../../support/engine/recordings.js";

describe("the worker on GitHub", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();
  const operations = () => mocks.operations();

  const failingStart = async (routes: Route[]) => {
    const job = await newJob({ recording: recording({}) });
    job.github.install(routes);
    job.github.permissions.set("ana", "write");
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });
    return job;
  };
  const failureComments = (job: GitHubJob) =>
    job.github.botComments(1).filter((c) => readHiddenBlock(c.body)?.kind === "worker-failure");

  it("a refusal from GitHub posts one comment with the reason, no secret in it, and exits 1; the same run again posts nothing more", async () => {
    const job = await failingStart(["graphql", "list-comments", "create-comment"]);
    // GitHub refuses the wake's first read, and its message echoes the token.
    job.github.failures.set("graphql", {
      status: 403,
      message: `Resource not accessible by integration (token ${WORKER_TOKEN})`,
    });

    expect(await job.runWorker(1)).toBe(1);
    expect(failureComments(job)).toHaveLength(1);
    const body = failureComments(job)[0]!.body;
    expect(body).toContain("The cfa worker failed on job #1");
    expect(body).toContain("https://github.com/octo-org/hello-world/actions/runs/4242");
    expect(body).toContain("Resource not accessible by integration (token [redacted])");
    expect(job.lines.join("\n")).toContain("::error::cfa/worker: job #1 failed");
    for (const c of job.github.comments) expect(c.body).not.toContain(WORKER_TOKEN);

    // A re-run of the same attempt fails the same way and finds its comment.
    expect(await job.runWorker(1)).toBe(1);
    expect(failureComments(job)).toHaveLength(1);
  });

  it("a 5xx and a secondary rate limit are waited out: the wake reaches its gate and nothing is posted about them", async () => {
    // The routes the INTENT wake uses, up to its gate.
    const job = await newJob({
      routes: FIRST_WAKE_ROUTES,
      recording: happyRecording({ anyOrder: true }),
    });
    // GitHub fails twice, then answers (plugin-retry); the permission check hits the secondary
    // rate limit with `retry-after` (plugin-throttling waits; TEST_PACING makes 60 s 60 ms);
    // the gate's pull request meets a primary limit that resets at once.
    job.github.failures.set("graphql", { status: 502, message: "Bad Gateway", times: 2 });
    job.github.failures.set("permission", {
      status: 403,
      message:
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      times: 1,
      headers: { "retry-after": "60" },
    });
    job.github.failures.set("create-pull", {
      status: 429,
      message: "API rate limit exceeded",
      times: 1,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "0" },
    });

    expect(await job.runWorker(1)).toBe(0);
    expect(failureComments(job)).toEqual([]);
    expect(job.github.pulls).toHaveLength(1);
    expect(job.github.botComments(1).map((c) => readHiddenBlock(c.body)?.kind)).toEqual([
      "gate",
      "status",
    ]);
    const log = job.lines.join("\n");
    expect(log).toContain(
      "secondary rate limit was hit on GET /repos/{owner}/{repo}/collaborators/{username}/permission; waiting 60 s, then retrying",
    );
    expect(log).toContain("rate limit is used up on POST /repos/{owner}/{repo}/pulls; waiting");
    const count = (id: string) => operations().filter((c) => c === id).length;
    expect(count("graphql")).toBe(3);
    expect(count("pulls/create")).toBe(2);
  });

  it("on GitHub Enterprise Server the status comment links to the instance (GITHUB_SERVER_URL), never to github.com", async () => {
    const job = await newJob({
      routes: FIRST_WAKE_ROUTES,
      recording: happyRecording({ anyOrder: true }),
      env: { GITHUB_SERVER_URL: "https://ghe.example.com" },
    });

    expect(await job.runWorker(1)).toBe(0);
    const status = job.github
      .botComments(1)
      .find((c) => readHiddenBlock(c.body)?.kind === "status")!.body;
    expect(status).toContain("https://ghe.example.com/octo-org/hello-world/tree/cfa/1");
    expect(status).toContain("https://ghe.example.com/octo-org/hello-world/pull/");
    expect(status).not.toContain("https://github.com/");
  });

  it("GitHub failing past the retries stops the run (exit 1) without a failure comment: the sweep wakes the job later", async () => {
    const job = await failingStart(["graphql"]);
    job.github.failures.set("graphql", {
      status: 500,
      message: `Server Error (token ${WORKER_TOKEN})`,
    });

    expect(await job.runWorker(1)).toBe(1);
    expect(failureComments(job)).toEqual([]);
    const log = job.lines.join("\n");
    expect(log).toContain("GitHub did not answer in time");
    expect(log).toContain("Server Error (token [redacted])");
    expect(log).not.toContain(WORKER_TOKEN);
    // The client's retries: the first attempt and six more.
    const calls = mocks.operations();
    expect(calls.filter((c) => c === "graphql")).toHaveLength(7);
  });

  it("GitHub refusing the token (401) stops the run live with what to fix, posts nothing and leaves the job unfailed (credentials are the installation's fault, not the job's)", async () => {
    const job = await failingStart(["graphql"]);
    job.github.failures.set("graphql", { status: 401, message: "Bad credentials" });

    expect(await job.runWorker(1)).toBe(1);
    expect(failureComments(job)).toEqual([]);
    const log = job.lines.join("\n");
    expect(log).toContain("GitHub refused the credentials (401)");
    expect(log).toContain("Fix the app's credentials");
    expect(log).toContain("the next event on the issue or the sweep carries the job on");
    expect(log).not.toContain("job #1 failed");
    // Refused, not retried: one attempt.
    expect(operations().filter((c) => c === "graphql")).toHaveLength(1);
  });

  it("a cancelled run (SIGINT on /withdraw) stops like a crash: the started job is kept, nothing is posted, exit 1", async () => {
    const job = await newJob({ recording: recording({}) });
    job.github.install(["graphql", "permission"]);
    job.github.permissions.set("ana", "write");
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });
    const controller = new AbortController();
    controller.abort(new Error("the run was cancelled (SIGINT)"));

    expect(await job.runWorker(1, controller.signal)).toBe(1);

    expect(job.lines.join("\n")).toContain("::warning::cfa/worker: job #1: the run was cancelled");
    // The job's start was pushed before the first turn. A stopped wake is a crash by choice:
    // nothing more is posted (no failure, no status); the next run carries the job on.
    expect(job.github.branches()).toContain("cfa/1");
    expect(job.github.botComments(1)).toEqual([]);
  });

  it("a bad .github/cfa.yml: one comment naming the field (the app's own), no branch, exit 0", async () => {
    const bad = "caps:\n  turns: many\n";
    const job = await newJob({ recording: recording({}), config: bad });
    job.github.install(["graphql", "list-comments", "create-comment"]);
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });

    expect(await job.runWorker(1)).toBe(0);
    expect(await job.runWorker(1)).toBe(0);

    const parsed = parseConfig(bad);
    if (parsed.ok) throw new Error("expected a bad config");
    expect(job.github.botComments(1).map((c) => c.body)).toEqual([
      configErrorComment(1, parsed.errors).body,
    ]);
    expect(job.github.botComments(1)[0]!.body).toContain("caps.turns");
    expect(job.github.branches()).toEqual(["main"]);
  });

  it("an issue labelled by someone with triage access does not start: no branch, no comment", async () => {
    const job = await newJob({ recording: recording({}) });
    job.github.install(["graphql", "permission"]);
    job.github.permissions.set("tri", "triage");
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "tri", label: "cfa" });

    expect(await job.runWorker(1)).toBe(0);

    expect(job.github.branches()).toEqual(["main"]);
    expect(job.github.comments).toEqual([]);
    expect(job.lines.join("\n")).toContain("@tri, who added `cfa`, has triage access");
    // One query reads the issue, who labelled it and the config; then the labeller's access.
    expect(operations()).toEqual(["graphql", "repos/get-collaborator-permission-level"]);
  });
});
