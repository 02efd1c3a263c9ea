import { describe, expect, it } from "vitest";
import { CHECK_SUMMARY_LIMIT, checkRunFields } from "../../../src/adapters/github/index.js";
import { expectBody, nockGitHub, useGitHubMocks } from "../../support/github/index.js";
import { HEAD_SHA, OTHER_SHA, R, checkRun, testForge } from "./github-shapes.js";

describe("GitHub forge: setCheck", () => {
  const github = useGitHubMocks();

  it("creates a check run once per (name, sha), then updates it", async () => {
    nockGitHub()
      .get(`${R}/commits/${HEAD_SHA}/check-runs`)
      .query({ check_name: "cfa/intent", per_page: "100" })
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

    expect(
      github
        .recorder()
        .calls()
        .map((c) => c.operationId),
    ).toEqual(["checks/list-for-ref", "checks/create", "checks/update"]);
    expect(forge.apiCalls()).toBe(3);
  });

  it("finds a run an earlier worker created for the same commit and updates it", async () => {
    nockGitHub()
      .get(`${R}/commits/${OTHER_SHA}/check-runs`)
      .query({ check_name: "cfa/plan", per_page: "100" })
      .reply(200, {
        total_count: 1,
        check_runs: [checkRun(77, { name: "cfa/plan", head_sha: OTHER_SHA })],
      })
      .patch(`${R}/check-runs/77`, expectBody({ status: "completed", conclusion: "neutral" }))
      .reply(200, checkRun(77, { name: "cfa/plan", head_sha: OTHER_SHA, status: "completed" }));

    // A completed check without a conclusion: GitHub would refuse it, so "neutral".
    await testForge().setCheck({
      name: "cfa/plan",
      sha: OTHER_SHA,
      status: "completed",
      summary: "Withdrawn",
    });
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
