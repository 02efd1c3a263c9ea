import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runWorker } from "../../../src/worker/run-worker.js";
import {
  examplePayload,
  expectBody,
  nockGitHub,
  TEST_PACING,
  useGitHubMocks,
} from "../../support/github/index.js";

const R = "/repos/Codertocat/Hello-World";

describe("Actions-only mode: the workflow routes its own event", () => {
  const github = useGitHubMocks();
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cfa-route-"));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  async function run(name: string, payload: object) {
    const path = join(dir, "event.json");
    await writeFile(path, JSON.stringify(payload));
    const lines: string[] = [];
    const code = await runWorker(
      [],
      {
        GITHUB_REPOSITORY: "Codertocat/Hello-World",
        GITHUB_TOKEN: "ghs_routeTokenRouteToken0001",
        GITHUB_EVENT_NAME: name,
        GITHUB_EVENT_PATH: path,
        GITHUB_WORKFLOW_REF:
          "Codertocat/Hello-World/.github/workflows/agents.yml@refs/heads/master",
        GITHUB_RUN_ID: "77",
      },
      { print: (l) => lines.push(l), githubPacing: TEST_PACING },
    );
    return { code, lines };
  }

  it("/withdraw by a maintainer: 👀, the job's runs cancelled, its own workflow dispatched", async () => {
    const scope = nockGitHub();
    scope.get(`${R}/contents/.github%2Fcfa.yml`).reply(404, { message: "Not Found" });
    scope
      .get(`${R}/collaborators/max/permission`)
      .reply(200, { permission: "write", role_name: "maintain", user: { login: "max" } });
    scope
      .post(`${R}/issues/comments/901/reactions`, expectBody({ content: "eyes" }))
      .reply(201, {});
    scope
      .get(`${R}/actions/workflows/agents.yml/runs`)
      .query(true)
      .reply(200, { total_count: 1, workflow_runs: [{ id: 71, display_title: "cfa job #7" }] });
    scope.post(`${R}/actions/runs/71/cancel`).reply(202, {});
    scope
      .post(
        `${R}/actions/workflows/agents.yml/dispatches`,
        expectBody({ ref: "master", inputs: { job: "7" } }),
      )
      .reply(204);

    const { code } = await run(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { number: 7, labels: [{ name: "cfa" }], state: "open" },
        comment: { id: 901, body: "/withdraw", user: { login: "max", type: "User" } },
        sender: { login: "max", type: "User" },
      }),
    );

    expect(code).toBe(0);
    expect(github.recorder().invalid()).toEqual([]);
  });

  it("/cfa on a job's pull request (a follow-up's request): its head names the job, 👀, the job's workflow dispatched", async () => {
    const scope = nockGitHub();
    scope.get(`${R}/contents/.github%2Fcfa.yml`).reply(404, { message: "Not Found" });
    // The event names only the pull request: its head branch cfa/7 is job 7's.
    scope.get(`${R}/pulls/12`).reply(200, {
      number: 12,
      head: { ref: "cfa/7", repo: { full_name: "Codertocat/Hello-World" } },
    });
    scope
      .get(`${R}/collaborators/max/permission`)
      .reply(200, { permission: "write", role_name: "maintain", user: { login: "max" } });
    scope
      .post(
        `${R}/actions/workflows/agents.yml/dispatches`,
        expectBody({ ref: "master", inputs: { job: "7" } }),
      )
      .reply(204);
    scope
      .post(`${R}/issues/comments/902/reactions`, expectBody({ content: "eyes" }))
      .reply(201, {});

    const { code } = await run(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        issue: { number: 12, labels: [], state: "open", pull_request: { url: "x" } },
        comment: {
          id: 902,
          body: "/cfa also greet in French",
          user: { login: "max", type: "User" },
        },
        sender: { login: "max", type: "User" },
      }),
    );

    expect(code).toBe(0);
    expect(github.recorder().invalid()).toEqual([]);
  });

  it("an event about nothing cfa does costs no API call and succeeds", async () => {
    const { code, lines } = await run(
      "issue_comment",
      examplePayload("issue_comment", "created", { comment: { body: "thanks!" } }),
    );
    expect(code).toBe(0);
    expect(lines).toContain("cfa/worker: nothing to do: the comment is not a command");
  });

  it("a payload missing what the app relies on fails the run, saying so", async () => {
    const { code, lines } = await run("issue_comment", { action: "created", comment: {} });
    expect(code).toBe(1);
    expect(lines.join("\n")).toMatch(
      /AppEventError: cfa\/app: a issue_comment.created payload is missing fields/,
    );
  });
});
