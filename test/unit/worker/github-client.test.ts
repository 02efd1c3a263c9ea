// The worker's client acting as the GitHub App for as long as the job runs (a token lives an
// hour): installation tokens minted with a signed JWT, refreshed before they expire by the
// worker's clock, and again when GitHub refuses one early; every request goes out through
// Octokit over nock, validated against GitHub's OpenAPI description.

import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Clock } from "../../../src/ports/clock.js";
import { noopLogger } from "../../../src/ports/logger.js";
import { createWorkerGitHub } from "../../../src/worker/github-client.js";
import {
  TEST_PACING,
  nockGitHub,
  testPrivateKey,
  useGitHubMocks,
} from "../../support/github/index.js";

const APP_ID = 4711;
const R = "/repos/octo/hello";

/** The JWT GitHub would check: RS256 over the app's key, issued by the app, short-lived. */
function checkJwt(authorization: string): void {
  const match = /^bearer (.+)\.(.+)\.(.+)$/.exec(authorization);
  expect(match).not.toBeNull();
  const [, header, payload, signature] = match!;
  const ok = verify(
    "RSA-SHA256",
    Buffer.from(`${header}.${payload}`),
    createPublicKey(testPrivateKey()),
    Buffer.from(signature!, "base64url"),
  );
  expect(ok).toBe(true);
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<
    string,
    number
  >;
  expect(claims["iss"]).toBe(APP_ID);
  // GitHub refuses a JWT that lives longer than ten minutes.
  expect(claims["exp"]! - claims["iat"]!).toBeLessThanOrEqual(600);
}

function manualClock(start: string): Clock & { advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

const installationToken = (token: string, expiresAt: string) => ({
  token,
  expires_at: expiresAt,
  permissions: { contents: "write", issues: "write" },
  repository_selection: "selected",
});

/** The worker's client acting as the app on octo/hello; it finds its installation unless given. */
function asApp(
  clock: Clock,
  options: { installationId?: number; logger?: typeof noopLogger } = {},
) {
  const { installationId, logger = noopLogger } = options;
  return createWorkerGitHub({
    credentials: {
      kind: "app",
      appId: APP_ID,
      privateKey: testPrivateKey(),
      ...(installationId === undefined ? {} : { installationId }),
      owner: "octo",
      repo: "hello",
    },
    baseUrl: "https://api.github.com",
    logger,
    clock,
    pacing: TEST_PACING,
  });
}

/** GET issue #1 of octo/hello through `github`. */
const issueOne = (github: ReturnType<typeof createWorkerGitHub>) =>
  github.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
    owner: "octo",
    repo: "hello",
    issue_number: 1,
  });

type Scope = ReturnType<typeof nockGitHub>;
/** GitHub minting installation 42 `token`, good until `expiresAt`. */
const mints = (scope: Scope, token: string, expiresAt: string) =>
  scope.post("/app/installations/42/access_tokens").reply(201, installationToken(token, expiresAt));
/** Issue #1 asked for with `token`, answered `status` with `body`. */
const issueWith = (scope: Scope, token: string, status = 200, body: object = { number: 1 }) =>
  scope.get(`${R}/issues/1`).matchHeader("authorization", `token ${token}`).reply(status, body);

describe("the worker acting as the app", () => {
  useGitHubMocks();

  it("finds its installation, mints a token, and uses it for API calls and for git", async () => {
    const scope = nockGitHub();
    scope
      .get(`${R}/installation`)
      .reply(function () {
        checkJwt(String(this.req.headers["authorization"]));
        return [200, { id: 42, account: { login: "octo" }, app_id: APP_ID }];
      })
      .post("/app/installations/42/access_tokens")
      .reply(function () {
        checkJwt(String(this.req.headers["authorization"]));
        return [201, installationToken("ghs_first000000000000000", "2026-11-22T11:00:00Z")];
      })
      .get(`${R}/issues/1`)
      .matchHeader("authorization", "token ghs_first000000000000000")
      .reply(200, { number: 1 });

    const clock = manualClock("2026-11-22T10:00:00Z");
    const github = asApp(clock);
    await issueOne(github);
    expect(await github.token()).toBe("ghs_first000000000000000");
    expect(github.secrets()).toEqual([testPrivateKey(), "ghs_first000000000000000"]);
  });

  it("an hour later (by the worker's clock) the next call and the next push get a new token", async () => {
    const scope = nockGitHub();
    mints(scope, "ghs_hour1000000000000000", "2026-11-22T11:00:00Z");
    issueWith(scope, "ghs_hour1000000000000000");
    mints(scope, "ghs_hour2000000000000000", "2026-11-22T12:00:00Z");
    issueWith(scope, "ghs_hour2000000000000000");

    const clock = manualClock("2026-11-22T10:00:00Z");
    const github = asApp(clock, { installationId: 42 });
    await issueOne(github);
    clock.advance(50 * 60_000);
    // Still ten minutes to go: the same token for git.
    expect(await github.token()).toBe("ghs_hour1000000000000000");
    clock.advance(6 * 60_000);
    // Four minutes left is too close: a push now would race the expiry.
    expect(await github.token()).toBe("ghs_hour2000000000000000");
    await issueOne(github);
  });

  it("a token GitHub refuses early (401) is replaced and the request sent once more", async () => {
    // auth-app retries a 401 in a token's first five seconds (GitHub's replication lag); this
    // one is refused twenty minutes after it was minted, by the worker's clock.
    const clock = manualClock("2026-11-22T10:00:00Z");
    const logs: string[] = [];
    const scope = nockGitHub();
    mints(scope, "ghs_revoked0000000000000", "2026-11-22T11:00:00Z");
    issueWith(scope, "ghs_revoked0000000000000");
    issueWith(scope, "ghs_revoked0000000000000", 401, { message: "Bad credentials" });
    mints(scope, "ghs_renewed0000000000000", "2026-11-22T11:30:00Z");
    issueWith(scope, "ghs_renewed0000000000000", 200, { number: 1, title: "again" });

    const github = asApp(clock, {
      installationId: 42,
      logger: { ...noopLogger, info: (m) => logs.push(m) },
    });
    await issueOne(github);
    clock.advance(20 * 60_000);
    const { data } = await issueOne(github);
    expect(data).toEqual({ number: 1, title: "again" });
    expect(logs).toContain(
      "cfa/github: GitHub refused the installation token (401); minting a new one",
    );
    expect(github.secrets()).toEqual([
      testPrivateKey(),
      "ghs_revoked0000000000000",
      "ghs_renewed0000000000000",
    ]);
  });

  it("the workflow's token is used as given; a 401 with it is GitHub's answer, not retried", async () => {
    nockGitHub()
      .get(`${R}/issues/1`)
      .matchHeader("authorization", "token ghs_workflow00000000000")
      .reply(401, { message: "Bad credentials" });
    const github = createWorkerGitHub({
      credentials: { kind: "token", token: "ghs_workflow00000000000" },
      baseUrl: "https://api.github.com",
      logger: noopLogger,
      pacing: TEST_PACING,
    });
    await expect(issueOne(github)).rejects.toMatchObject({ status: 401 });
    expect(await github.token()).toBe("ghs_workflow00000000000");
  });
});
