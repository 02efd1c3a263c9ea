// The webhook server as `npm start` runs it (startServer), against a fake GitHub server that
// GitHub Enterprise Server's variables point it at, over http; its log captured, its
// Octokit the test one (no retries, no throttling waits).

import { startServer, type StartOptions } from "../../../src/app/start-server.js";
import { createCapturingLogger } from "./capturing-logger.js";
import type { FakeGitHubServer } from "./fake-github-server.js";
import { testPrivateKey } from "./test-private-key.js";
import { TestProbotOctokit } from "./test-probot-octokit.js";

export async function startAppServer(
  github: FakeGitHubServer,
  webhookSecret: string,
  options: StartOptions = {},
) {
  const started = await startServer(
    {
      APP_ID: "123456",
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: webhookSecret,
      HOST: "127.0.0.1",
      PORT: "0",
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
    },
    { Octokit: TestProbotOctokit, log: createCapturingLogger().logger, ...options },
  );
  return { started, url: `http://127.0.0.1:${started.port}/api/github/webhooks` };
}
