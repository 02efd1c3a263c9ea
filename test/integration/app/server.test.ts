// The webhook server as `npm start` runs it (startServer), over real HTTP: signed deliveries in, a
// fake GitHub Enterprise Server (GHE_HOST/GHE_PROTOCOL) behind it that validates every call against
// GitHub's OpenAPI description. GitHub is answered before any API call (it waits 10 s for an answer
// and does not redeliver by itself), cues for one job coalesce, dispatches go before 👀. Probot's
// throttling is off here (one write a second would make this test slow); the order comes from the
// server's own queue. `npm run bench -- server` measures the pace.

import { afterEach, describe, expect, it } from "vitest";
import type { StartedServer } from "../../../src/app/start-server.js";
import {
  isWrite,
  startFakeGitHubServer,
  type FakeGitHubServer,
} from "../../support/github/fake-github-server.js";
import { examplePayload } from "../../support/github/index.js";
import { request } from "node:http";
import { startAppServer } from "../../support/github/app-server.js";
import { sendDelivery, signDelivery } from "../../support/github/signed-delivery.js";

const SECRET = "cfa-server-test-secret";

let github: FakeGitHubServer | undefined;
let started: StartedServer | undefined;

afterEach(async () => {
  await started?.close();
  await github?.stop();
  started = undefined;
  github = undefined;
});

async function boot(): Promise<{ url: string; github: FakeGitHubServer; started: StartedServer }> {
  github = await startFakeGitHubServer();
  const app = await startAppServer(github, SECRET);
  started = app.started;
  return { url: app.url, github, started };
}

const command = (job: number, comment: number, body: string) => ({
  id: `d-${comment}`,
  name: "issue_comment",
  payload: examplePayload("issue_comment", "created", {
    issue: { number: job, labels: [{ name: "cfa" }], state: "open" },
    comment: { id: comment, body, user: { login: "wes", type: "User" } },
    sender: { login: "wes", type: "User" },
  }),
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const opsOf = (gh: FakeGitHubServer) => gh.calls.map((c) => c.operationId);

describe("the webhook server answers first and works after", () => {
  it("answers every delivery before any GitHub call is answered, then coalesces one job's cues and dispatches before 👀", async () => {
    const { url, github: gh, started: app } = await boot();
    // GitHub answers nothing until every delivery has been acknowledged.
    const releaseAll = gh.hold(() => true);
    const deliveries = [
      ...[1, 2, 3, 4, 5].map((job) => command(job, 100 + job, "/withdraw")),
      ...Array.from({ length: 10 }, (_, i) => command(9, 200 + i, `/intervene step ${i}`)),
    ];
    const answers = await Promise.all(deliveries.map((d) => sendDelivery(url, SECRET, d)));

    // 202 Accepted: queued (GitHub counts any 2xx as delivered).
    expect(answers.map((a) => a.status)).toEqual(deliveries.map(() => 202));
    expect(gh.calls.filter((c) => c.answeredAt !== undefined)).toEqual([]);

    // Writes wait until every delivery is triaged, so the queue's order decides the rest.
    const releaseWrites = gh.hold(isWrite);
    releaseAll();
    await until(() => app.queue.triaging() === 0);
    releaseWrites();
    await app.queue.onIdle();

    expect(gh.calls.filter((c) => c.invalid !== undefined)).toEqual([]);
    // Every call but the token's was made as the installation.
    expect(
      gh.calls.filter((c) => c.operationId !== "apps/create-installation-access-token"),
    ).toSatisfy((calls: typeof gh.calls) => calls.every((c) => c.auth === "token"));
    const dispatches = gh.calls.filter((c) => c.operationId === "actions/create-workflow-dispatch");
    const dispatched = dispatches.map((c) => (c.body as { inputs: { job: string } }).inputs.job);
    expect(dispatched.sort()).toEqual(["1", "2", "3", "4", "5", "9"]);
    const ops = opsOf(gh);
    const firstReaction = ops.indexOf("reactions/create-for-issue-comment");
    expect(ops.lastIndexOf("actions/create-workflow-dispatch")).toBeLessThan(firstReaction);
    expect(ops.filter((o) => o === "reactions/create-for-issue-comment")).toHaveLength(15);
    // Each /withdraw looked for runs to cancel before its job's dispatch; /intervene did not.
    expect(ops.filter((o) => o === "actions/list-workflow-runs")).toHaveLength(5);
  });

  it("a delivery naming no installation (a repository webhook pointed at the app) is answered 400 at once, with the reason", async () => {
    const { url, github: gh, started: app } = await boot();
    const delivery = command(4, 411, "/withdraw");
    delete (delivery.payload as { installation?: unknown }).installation;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const signed = signDelivery(SECRET, delivery);
      const req = request(url, { method: "POST", headers: signed.headers }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(signed.body);
    });
    await app.queue.onIdle();
    expect(answer.status).toBe(400);
    expect(answer.text.trim().split("\n")).toHaveLength(1);
    expect(answer.text).toContain("names no installation");
    expect(gh.calls).toEqual([]);
  });

  it("a repeated delivery id is answered and ignored; a bad signature is refused and costs nothing", async () => {
    const { url, github: gh, started: app } = await boot();
    const delivery = command(4, 401, "/intervene again");
    const [first, second] = await Promise.all([
      sendDelivery(url, SECRET, delivery),
      sendDelivery(url, SECRET, delivery),
    ]);
    const forged = await sendDelivery(url, "not-the-secret", command(4, 402, "/withdraw"));
    await app.queue.onIdle();

    // One is queued (202), the other is answered as a repeat (200) and costs nothing.
    expect([first.status, second.status].sort()).toEqual([200, 202]);
    expect(forged.status).toBe(400);
    expect(opsOf(gh).filter((o) => o === "actions/create-workflow-dispatch")).toHaveLength(1);
    expect(opsOf(gh).filter((o) => o === "actions/list-workflow-runs")).toHaveLength(0);
  });
});
