import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_SUMMARY_LIMIT, checkRunFields } from "../../../../src/adapters/github/index.js";
import { git, makeTempRepo } from "../../../support/git/temp-repo.js";
import { expectBody, nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  HEAD_SHA,
  OTHER_SHA,
  R,
  checkRun,
  testForge,
} from "../../../support/github/github-shapes.js";

describe("GitHub forge: setCheck", () => {
  const github = useGitHubMocks();

  it("creates a check run once per (name, sha), then updates it", async () => {
    nockGitHub()
      .get(`${R}/commits/${HEAD_SHA}/check-runs`)
      .query({ per_page: "100" })
      .reply(200, { total_count: 0, check_runs: [] })
      .post(
        `${R}/check-runs`,
        expectBody({
          name: "cfa/intent",
          head_sha: HEAD_SHA,
          status: "in_progress",
          conclusion: undefined,
          output: { title: "cfa/intent: in progress", summary: "Drafting INTENT.md" },
        }),
      )
      .reply(201, checkRun(4, { name: "cfa/intent", head_sha: HEAD_SHA }))
      .patch(
        `${R}/check-runs/4`,
        expectBody({
          name: "cfa/intent",
          status: "completed",
          conclusion: "success",
          output: { title: "cfa/intent: success", summary: "Approved" },
        }),
      )
      .reply(200, checkRun(4, { name: "cfa/intent", head_sha: HEAD_SHA, status: "completed" }));
    const forge = testForge();

    await forge.setCheck({
      name: "cfa/intent",
      sha: HEAD_SHA,
      status: "in_progress",
      summary: "Drafting INTENT.md",
    });
    await forge.setCheck({
      name: "cfa/intent",
      sha: HEAD_SHA,
      status: "completed",
      conclusion: "success",
      summary: "Approved",
    });

    expect(github.operations()).toEqual(["checks/list-for-ref", "checks/create", "checks/update"]);
    expect(forge.apiCalls()).toBe(3);
  });

  it("finds the runs an earlier worker created for the same commit in one call, and updates them", async () => {
    nockGitHub()
      .get(`${R}/commits/${OTHER_SHA}/check-runs`)
      .query({ per_page: "100" })
      .reply(200, {
        total_count: 3,
        check_runs: [
          checkRun(76, { name: "cfa/intent", head_sha: OTHER_SHA }),
          checkRun(77, { name: "cfa/plan", head_sha: OTHER_SHA }),
          checkRun(78, { name: "lint", head_sha: OTHER_SHA }),
        ],
      })
      .patch(`${R}/check-runs/77`, expectBody({ status: "completed", conclusion: "neutral" }))
      .reply(200, checkRun(77, { name: "cfa/plan", head_sha: OTHER_SHA, status: "completed" }))
      .patch(`${R}/check-runs/76`, expectBody({ status: "completed", conclusion: "success" }))
      .reply(200, checkRun(76, { name: "cfa/intent", head_sha: OTHER_SHA, status: "completed" }));

    const forge = testForge();
    // A completed check without a conclusion: GitHub would refuse it, so "neutral".
    await forge.setCheck({
      name: "cfa/plan",
      sha: OTHER_SHA,
      status: "completed",
      summary: "Withdrawn",
    });
    await forge.setCheck({
      name: "cfa/intent",
      sha: OTHER_SHA,
      status: "completed",
      conclusion: "success",
      summary: "Approved",
    });
    expect(forge.apiCalls()).toBe(3);
  });

  it("a commit this forge pushed has no run yet: created without looking for one", async () => {
    // A real push of a new commit from a clone to a bare repository standing in for GitHub.
    const temp = makeTempRepo({ prefix: "cfa-checks-", at: "work" });
    try {
      const work = temp.repo;
      const bare = join(temp.root, "remote.git");
      git(temp.root, "init", "--quiet", "--bare", bare);
      temp.git("remote", "add", "origin", bare);
      const sha = temp.git("rev-parse", "HEAD");
      nockGitHub()
        .post(`${R}/check-runs`, expectBody({ name: "cfa/intent", head_sha: sha }))
        .reply(201, checkRun(5, { name: "cfa/intent", head_sha: sha }));
      const forge = testForge({ repoDir: work });

      await forge.pushBranch("cfa/1", { sha, expectedOld: null });
      await forge.setCheck({ name: "cfa/intent", sha, status: "in_progress", summary: "x" });

      expect(github.operations()).toEqual(["checks/create"]);
    } finally {
      temp.cleanup();
    }
  });
});

describe("checkRunFields", () => {
  it("trims a summary to GitHub's limit", () => {
    const fields = checkRunFields({
      name: "cfa/execute",
      sha: HEAD_SHA,
      status: "completed",
      conclusion: "failure",
      summary: "z".repeat(100_000),
    });
    expect(fields.output.summary.length).toBeLessThanOrEqual(CHECK_SUMMARY_LIMIT);
    expect(fields.output.summary).toMatch(/trimmed\._$/);
  });
});
