// The redacting Forge over the real GitHub adapter: Octokit sends real HTTP to nock, which
// checks every request against GitHub's OpenAPI description; the bodies GitHub would
// receive are asserted, not the wrapper's arguments.

import { describe, expect, it } from "vitest";
import { REDACTED, Redactor, redactingForge } from "../../../src/secrets/index.js";
import { nockGitHub, useGitHubMocks } from "../../support/github/index.js";
import {
  HEAD_SHA,
  R,
  checkRun,
  issueComment,
  pullRequest,
  testForge,
} from "../../support/github/github-shapes.js";

const API_KEY = "sk-ant-api03-planted-0123456789abcdef";
const PLANTED = "a-value-only-this-process-knows-42";
const GITHUB_TOKEN = "ghs_0123456789abcdefghijABCDEFGHIJ012345";

/** Captures what GitHub received as JSON. */
function capture(): {
  bodies: unknown[];
  reply: (
    status: number,
    make: (b: never) => unknown,
  ) => (uri: string, body: unknown) => [number, unknown];
} {
  const bodies: unknown[] = [];
  return {
    bodies,
    reply: (status, make) => (_uri, body) => {
      bodies.push(body);
      return [status, make(body as never)];
    },
  };
}

function wrapped() {
  const reports: [number, string][] = [];
  const redactor = new Redactor([PLANTED], (count, where) => reports.push([count, where]));
  return { forge: redactingForge(testForge(), redactor), reports };
}

describe("redactingForge: everything the bot posts through the Forge is redacted", () => {
  const github = useGitHubMocks();
  const leak = `key ${API_KEY}, value ${PLANTED}, token ${GITHUB_TOKEN}`;

  it("a comment created or edited carries no secret; the count is reported", async () => {
    const c = capture();
    nockGitHub()
      .post(`${R}/issues/1/comments`)
      .reply(c.reply(201, (b: { body: string }) => issueComment(5, b.body)))
      .patch(`${R}/issues/comments/5`)
      .reply(c.reply(200, (b: { body: string }) => issueComment(5, b.body)));
    const { forge, reports } = wrapped();

    const created = await forge.createComment(1, `hello ${leak}`);
    await forge.updateComment(5, `edited ${leak}`);

    expect(c.bodies).toEqual([
      { body: `hello key ${REDACTED}, value ${REDACTED}, token ${REDACTED}` },
      { body: `edited key ${REDACTED}, value ${REDACTED}, token ${REDACTED}` },
    ]);
    expect(created.body).not.toContain(PLANTED);
    expect(reports).toEqual([
      [3, "a comment"],
      [3, "a comment"],
    ]);
  });

  it("a pull request's title and body, created or updated, carry no secret", async () => {
    const c = capture();
    nockGitHub()
      .post(`${R}/pulls`)
      .reply(c.reply(201, () => pullRequest(12)))
      .patch(`${R}/pulls/12`)
      .reply(c.reply(200, () => pullRequest(12)));
    const { forge } = wrapped();

    await forge.createPullRequest({
      head: "cfa/1",
      base: "main",
      title: `t ${PLANTED}`,
      body: leak,
      draft: true,
    });
    await forge.updatePullRequest(12, { body: leak });

    expect(JSON.stringify(c.bodies)).not.toMatch(/planted|only-this-process|ghs_0123/);
    expect(c.bodies[0]).toMatchObject({ title: `t ${REDACTED}`, head: "cfa/1", draft: true });
    expect(c.bodies[1]).toEqual({ body: `key ${REDACTED}, value ${REDACTED}, token ${REDACTED}` });
  });

  it("a check run's summary carries no secret", async () => {
    const c = capture();
    nockGitHub()
      .get(`${R}/commits/${HEAD_SHA}/check-runs`)
      .query({ per_page: "100" })
      .reply(200, { total_count: 0, check_runs: [] })
      .post(`${R}/check-runs`)
      .reply(c.reply(201, () => checkRun(4, { name: "cfa/plan", head_sha: HEAD_SHA })));
    const { forge } = wrapped();

    await forge.setCheck({ name: "cfa/plan", sha: HEAD_SHA, status: "in_progress", summary: leak });

    expect(c.bodies[0]).toMatchObject({
      output: { summary: `key ${REDACTED}, value ${REDACTED}, token ${REDACTED}` },
    });
  });

  it("reads and the adapter's own members pass through unchanged", async () => {
    nockGitHub()
      .get(`${R}/issues/1/comments`)
      .query({ per_page: "100" })
      .reply(200, [issueComment(1, `a person quoted ${PLANTED}`)]);
    const { forge } = wrapped();

    // What people wrote is read as is: redaction is for what the bot writes.
    expect((await forge.listComments(1))[0]?.body).toBe(`a person quoted ${PLANTED}`);
    expect(forge.botLogin).toBe("cfa-bot[bot]");
    expect(forge.apiCalls()).toBe(github.recorder().calls().length);
  });
});
