// The worker's own duties around a wake (issue 5 §4, §5): a failure is posted once on the
// issue, redacted, and the run exits non-zero; a bad config gets the one comment the app
// would post and no job starts; a start nobody allowed creates nothing.

import { afterEach, describe, expect, it } from "vitest";
import { configErrorComment } from "../../../src/engine/render/config-error-comment.js";
import { parseConfig } from "../../../src/config/index.js";
import { readHiddenBlock } from "../../../src/engine/render/hidden-block.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { recording } from "../../support/engine/script.js";
import { type Route } from "./fake-github.js";
import { createGitHubJob, WORKER_TOKEN, type GitHubJob } from "./github-job.js";

describe("the worker on GitHub", () => {
  const mocks = useGitHubMocks();
  let job: GitHubJob | undefined;
  afterEach(async () => job?.cleanup());
  const operations = () =>
    mocks
      .recorder()
      .calls()
      .map((c) => c.operationId);

  it("a wake that fails posts one comment with the reason, no secret in it, and exits 1; the same run again posts nothing more", async () => {
    job = await createGitHubJob({ recording: recording({}) });
    const routes: Route[] = [
      "repo",
      "issue",
      "issue-events",
      "permission",
      "content",
      "list-comments",
      "create-comment",
    ];
    job.github.install(routes);
    // GitHub fails while the job starts, and its message echoes the token.
    job.github.failures.set("repo", {
      status: 500,
      message: `Server Error (token ${WORKER_TOKEN})`,
    });
    job.github.permissions.set("ana", "write");
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });

    expect(await job.runWorker(1)).toBe(1);
    const failures = () =>
      job!.github.botComments(1).filter((c) => readHiddenBlock(c.body)?.kind === "worker-failure");
    expect(failures()).toHaveLength(1);
    const body = failures()[0]!.body;
    expect(body).toContain("The cfa worker failed on job #1");
    expect(body).toContain("https://github.com/octo-org/hello-world/actions/runs/4242");
    expect(body).toContain("Server Error (token [redacted])");
    expect(job.lines.join("\n")).toContain("::error::cfa/worker: job #1 failed");
    for (const c of job.github.comments) expect(c.body).not.toContain(WORKER_TOKEN);

    // A re-run of the same attempt fails the same way and finds its comment.
    expect(await job.runWorker(1)).toBe(1);
    expect(failures()).toHaveLength(1);
  });

  it("a cancelled run (SIGINT on /withdraw) stops like a crash: the started job is kept, nothing is posted, exit 1", async () => {
    job = await createGitHubJob({ recording: recording({}) });
    job.github.install(["repo", "issue", "issue-events", "permission", "content"]);
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
    job = await createGitHubJob({ recording: recording({}), config: bad });
    job.github.install(["content", "list-comments", "create-comment"]);
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
    job = await createGitHubJob({ recording: recording({}) });
    job.github.install(["content", "issue", "issue-events", "permission"]);
    job.github.permissions.set("tri", "triage");
    job.github.openIssue({ number: 1, title: "Greet", body: "x", author: "tri", label: "cfa" });

    expect(await job.runWorker(1)).toBe(0);

    expect(job.github.branches()).toEqual(["main"]);
    expect(job.github.comments).toEqual([]);
    expect(job.lines.join("\n")).toContain("@tri, who added `cfa`, has triage access");
    expect(operations()).toEqual([
      "repos/get-content",
      "issues/get",
      "issues/list-events",
      "repos/get-collaborator-permission-level",
    ]);
  });
});
