// A Probot app under test, fed real payloads, talking to nock instead of GitHub.
//
// Pair it with useGitHubMocks() (or a GitHubMockSession): the installation-token request is
// mocked through nockGitHub(), so it is validated and appears in `recorder.calls()` as
// `apps/create-installation-access-token`. Probot caches the token per installation in the
// Probot instance, so a harness mints it once; make one harness per test.

import type { EmitterWebhookEvent } from "@octokit/webhooks";
import { Probot, type ApplicationFunction } from "probot";
import { createCapturingLogger, type LogEntry } from "./capturing-logger.js";
import { nockGitHub } from "./nock-github.js";
import type { ExampleEventName } from "./payloads.js";
import { TestProbotOctokit } from "./test-probot-octokit.js";
import { testPrivateKey } from "./test-private-key.js";

export const TEST_APP_ID = 123456;
export const TEST_WEBHOOK_SECRET = "cfa-test-webhook-secret";
export const TEST_INSTALLATION_TOKEN = "ghs_cfaTestInstallationToken";

export interface TestProbotOptions {
  readonly appId?: number;
  /** PEM; default: an RSA key generated once per test process. */
  readonly privateKey?: string;
  /** Default TEST_WEBHOOK_SECRET: never Probot's built-in "development". */
  readonly webhookSecret?: string;
}

export interface ReceiveOptions {
  /** The delivery id (X-GitHub-Delivery). Default: `delivery-<n>`, counting per harness. */
  readonly id?: string;
}

export interface TestProbot {
  readonly probot: Probot;
  /** Delivers a webhook; rejects (AggregateError) when a handler throws. */
  receive(event: ExampleEventName, payload: object, options?: ReceiveOptions): Promise<void>;
  /** Everything the app and Probot logged; nothing is printed. */
  readonly logs: readonly LogEntry[];
}

function installationIdOf(payload: object): number | undefined {
  const installation = (payload as { installation?: { id?: unknown } }).installation;
  return typeof installation?.id === "number" ? installation.id : undefined;
}

export function mockInstallationToken(installationId: number): void {
  // Optional: Probot only asks when the handler makes a call and its cached token is gone,
  // so an unused token mock is not a failure (a second, unexpected mint would be).
  nockGitHub()
    .post(`/app/installations/${installationId}/access_tokens`)
    .optionally()
    .reply(201, {
      token: TEST_INSTALLATION_TOKEN,
      expires_at: "2999-01-01T00:00:00Z",
      permissions: { issues: "write", pull_requests: "write", contents: "write", actions: "write" },
      repository_selection: "all",
    });
}

export async function createTestProbot(
  appFn: ApplicationFunction,
  options: TestProbotOptions = {},
): Promise<TestProbot> {
  const { logger, entries } = createCapturingLogger();
  const probot = new Probot({
    appId: options.appId ?? TEST_APP_ID,
    privateKey: options.privateKey ?? testPrivateKey(),
    secret: options.webhookSecret ?? TEST_WEBHOOK_SECRET,
    Octokit: TestProbotOctokit,
    log: logger,
  });
  await probot.load(appFn);
  let deliveries = 0;
  return {
    probot,
    logs: entries,
    async receive(event, payload, receiveOptions = {}) {
      const installationId = installationIdOf(payload);
      if (installationId !== undefined) mockInstallationToken(installationId);
      deliveries += 1;
      const delivery = { id: receiveOptions.id ?? `delivery-${deliveries}`, name: event, payload };
      // The example payload types are older than Probot 14's: cast here, once.
      await probot.receive(delivery as unknown as EmitterWebhookEvent);
    },
  };
}
