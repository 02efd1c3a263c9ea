import { createHmac } from "node:crypto";
import nock from "nock";
import type { ApplicationFunction } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { expectBody } from "../../../support/github/expect-body.js";
import { startGitHubMockSession } from "../../../support/github/github-mock-session.js";
import { nockGitHub } from "../../../support/github/nock-github.js";
import { examplePayload, TEST_INSTALLATION_ID } from "../../../support/github/payloads.js";
import {
  createTestProbot,
  TEST_INSTALLATION_TOKEN,
  TEST_WEBHOOK_SECRET,
} from "../../../support/github/probot-harness.js";
import { useGitHubMocks } from "../../../support/github/use-github-mocks.js";

const ISSUE = "/repos/Codertocat/Hello-World/issues/1";

// Three content-creating calls in one handler: with Probot's throttling left on they would
// be spaced seconds apart; the harness turns it off.
const acknowledgeApp: ApplicationFunction = (app) => {
  app.on("issues.opened", async (context) => {
    await context.octokit.rest.reactions.createForIssue(context.issue({ content: "eyes" }));
    await context.octokit.rest.issues.createComment(context.issue({ body: "cfa: job accepted" }));
    await context.octokit.rest.issues.addLabels(context.issue({ labels: ["cfa"] }));
  });
};

function mockAcknowledgement(): void {
  nockGitHub({ reqheaders: { authorization: `token ${TEST_INSTALLATION_TOKEN}` } })
    .post(`${ISSUE}/reactions`, expectBody({ content: "eyes" }))
    .reply(201, { id: 1, content: "eyes" })
    .post(`${ISSUE}/comments`, expectBody({ body: "cfa: job accepted" }))
    .reply(201, { id: 2 })
    .post(`${ISSUE}/labels`, expectBody({ labels: ["cfa"] }))
    .reply(200, [{ name: "cfa" }]);
}

describe("createTestProbot with useGitHubMocks", () => {
  const github = useGitHubMocks();

  it("drives an app with a real issues.opened payload and counts exactly its calls", async () => {
    const probot = await createTestProbot(acknowledgeApp);
    mockAcknowledgement();

    await probot.receive("issues", examplePayload("issues", "opened"));

    expect(github.recorder().calls()).toEqual([
      {
        method: "POST",
        path: `/app/installations/${TEST_INSTALLATION_ID}/access_tokens`,
        operationId: "apps/create-installation-access-token",
      },
      { method: "POST", path: `${ISSUE}/reactions`, operationId: "reactions/create-for-issue" },
      { method: "POST", path: `${ISSUE}/comments`, operationId: "issues/create-comment" },
      { method: "POST", path: `${ISSUE}/labels`, operationId: "issues/add-labels" },
    ]);
    expect(github.recorder().invalid()).toEqual([]);
  });

  it("mints one installation token for two deliveries (Probot caches it)", async () => {
    const probot = await createTestProbot(acknowledgeApp);
    mockAcknowledgement();
    mockAcknowledgement();

    await probot.receive("issues", examplePayload("issues", "opened"), { id: "d-1" });
    await probot.receive("issues", examplePayload("issues", "opened"), { id: "d-2" });

    const operations = github.operations();
    expect(operations.filter((id) => id === "apps/create-installation-access-token")).toHaveLength(
      1,
    );
    expect(operations.filter((id) => id === "issues/create-comment")).toHaveLength(2);
  });

  it("does not require the token mock when the handler makes no call", async () => {
    const probot = await createTestProbot((app) => {
      app.on("issues.opened", () => undefined);
    });
    await probot.receive("issues", examplePayload("issues", "opened"));
    expect(github.recorder().calls()).toEqual([]);
  });

  it("rejects receive with the handler's error and keeps the logs", async () => {
    const probot = await createTestProbot((app) => {
      app.on("issue_comment.created", async (context) => {
        context.log.info({ comment: context.payload.comment.id }, "refusing");
        throw new Error("handler failed");
      });
    });
    const delivery = probot.receive("issue_comment", examplePayload("issue_comment", "created"));
    await expect(delivery).rejects.toThrow(AggregateError);
    await expect(delivery).rejects.toMatchObject({
      errors: [expect.objectContaining({ message: "handler failed" })],
    });
    expect(probot.logs).toContainEqual(
      expect.objectContaining({ level: "info", message: "refusing" }),
    );
  });

  it("uses the test webhook secret, not Probot's default 'development'", async () => {
    const probot = await createTestProbot((app) => {
      app.on("issues.labeled", () => undefined);
    });
    const payload = JSON.stringify(examplePayload("issues", "labeled"));
    const sign = (secret: string): string =>
      `sha256=${createHmac("sha256", secret).update(payload).digest("hex")}`;
    const deliver = (secret: string): Promise<void> =>
      probot.probot.webhooks.verifyAndReceive({
        id: "d-3",
        name: "issues",
        payload,
        signature: sign(secret),
      });
    await expect(deliver(TEST_WEBHOOK_SECRET)).resolves.toBeUndefined();
    await expect(deliver("development")).rejects.toThrow(/signature does not match/);
  });
});

describe("createTestProbot without retries", () => {
  afterEach(() => {
    nock.cleanAll();
  });

  it("fails an unmocked call after one attempt, and verify() names it", async () => {
    const session = startGitHubMockSession();
    const probot = await createTestProbot((app) => {
      app.on("issues.opened", async (context) => {
        await context.octokit.rest.issues.get(context.issue());
      });
    });

    await expect(probot.receive("issues", examplePayload("issues", "opened"))).rejects.toThrow(
      AggregateError,
    );

    // Probot's retry plugin would have tried a failing request up to 4 times.
    expect(session.unmatched()).toEqual([`GET api.github.com${ISSUE}`]);
    expect(() => session.verify()).toThrow(
      /requests no mock matched:\n\s+GET api.github.com\/repos\/Codertocat\/Hello-World\/issues\/1/,
    );
  });
});
