// The cfa webhook server's delivery path without HTTP: the same receiver, queue and
// Probot-made installation clients as startServer, over nock. `receive` hands a delivery over
// as the endpoint does (a malformed payload rejects, as it fails the delivery) and resolves
// once the delivery and every effect it queued have run (the server answers GitHub before
// that, within GitHub's 10 s), so a test can assert the calls right after it.

import { Probot } from "probot";
import { appLogins } from "../../../src/app/app-logins.js";
import { createDeliveryQueue, type DeliveryQueue } from "../../../src/app/delivery-queue.js";
import { createInstallationClients } from "../../../src/app/installation-clients.js";
import { fromPino } from "../../../src/app/pino-logger.js";
import { createDeliveryReceiver } from "../../../src/app/receive-delivery.js";
import { createDedupe } from "../../../src/github-events/dedupe.js";
import { createCapturingLogger } from "./capturing-logger.js";
import {
  mockInstallationToken,
  TEST_APP_ID,
  TEST_WEBHOOK_SECRET,
  type TestProbot,
} from "./probot-harness.js";
import { testPrivateKey } from "./test-private-key.js";
import { TestProbotOctokit } from "./test-probot-octokit.js";

export interface QueuedTestApp extends TestProbot {
  readonly queue: DeliveryQueue;
}

export interface QueuedTestAppOptions {
  /** The login the app posts as; default: asked of GitHub (GET /app), as the server does. */
  botLogin?: string;
}

export async function createQueuedTestApp(
  options: QueuedTestAppOptions = {},
): Promise<QueuedTestApp> {
  const { logger, entries } = createCapturingLogger();
  const probot = new Probot({
    appId: TEST_APP_ID,
    privateKey: testPrivateKey(),
    secret: TEST_WEBHOOK_SECRET,
    Octokit: TestProbotOctokit,
    log: logger,
  });
  await probot.ready();
  const queue = createDeliveryQueue({
    dedupe: createDedupe(),
    logger: fromPino(logger),
    botLogins: appLogins(probot, options.botLogin),
  });
  const receive = createDeliveryReceiver({
    queue,
    clients: createInstallationClients(probot),
    loggerFor: (delivery) => fromPino(logger.child({ id: delivery.id })),
  });
  let deliveries = 0;
  return {
    probot,
    logs: entries,
    queue,
    async receive(event, payload, options = {}) {
      const installation = (payload as { installation?: { id?: unknown } }).installation?.id;
      if (typeof installation === "number") mockInstallationToken(installation);
      deliveries += 1;
      receive({ id: options.id ?? `delivery-${deliveries}`, name: event, payload });
      await queue.onIdle();
    },
  };
}
