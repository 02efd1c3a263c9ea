// Starts the webhook server: Probot makes the GitHub clients (app and installation auth,
// throttling, retries, the config loader) for github.com or, with GHE_HOST/GHE_PROTOCOL,
// GitHub Enterprise Server (server-settings.ts); the endpoint is our own node:http
// listener, which answers before any work (webhook-server.ts). Built by hand rather than
// with Probot's run(), which would fall back to its setup mode or to the "development"
// secret.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Probot, type Logger as PinoLogger, type ProbotOctokit } from "probot";
import { createDedupe } from "../github-events/dedupe.js";
import {
  processRedactor,
  redactingLogger,
  registerEnvSecrets,
  registerSecret,
} from "../secrets/index.js";
import { appLog } from "./app-log.js";
import { appLogins } from "./app-logins.js";
import { createBodyBudget, type BodyBudget, type BodyBudgetLimits } from "./body-budget.js";
import { createDeliveryQueue, type DeliveryQueue, type QueueSettings } from "./delivery-queue.js";
import { httpServerOptions, type HttpLimits } from "./http-limits.js";
import { createInstallationClients } from "./installation-clients.js";
import { fromPino } from "./pino-logger.js";
import type { Logger } from "../ports/logger.js";
import { createDeliveryReceiver } from "./receive-delivery.js";
import { serverSettings, type ServerSettings } from "./server-settings.js";
import { BODY_BUDGET, webhookListener } from "./webhook-server.js";

export interface StartOptions {
  /** Replaces Probot's Octokit (tests: one without throttling and retries). */
  Octokit?: typeof ProbotOctokit;
  /** Replaces the pino logger built from LOG_LEVEL and LOG_FORMAT (tests: a silent one). */
  log?: PinoLogger;
  /** The server's timeouts (default HTTP_LIMITS; tests shorten them). */
  http?: HttpLimits;
  /** Bounds on unverified bodies (default BODY_BUDGET and MAX_BODY_BYTES). */
  bodies?: { budget?: BodyBudgetLimits; maxBodyBytes?: number };
  /** The queue's bounds and fairness (default QUEUE_DEFAULTS). */
  queue?: Partial<QueueSettings>;
}

export interface StartedServer {
  settings: ServerSettings;
  /** The port listened on (PORT, or the one the system chose for PORT=0). */
  port: number;
  /** The deliveries accepted and not yet worked: drain it before the process ends. */
  queue: DeliveryQueue;
  /** Unverified bodies being read now (tests and the bench read it). */
  bodies: BodyBudget;
  /** Stops accepting deliveries; what is queued keeps running. */
  close(): Promise<void>;
  /** The server's own log (redacted), for the entry point's lines on stopping. */
  logger: Logger;
}

export async function startServer(
  env: Readonly<Record<string, string | undefined>>,
  options: StartOptions = {},
): Promise<StartedServer> {
  // The app's key and webhook secret are cut from everything it writes or logs.
  registerEnvSecrets(env);
  const settings = serverSettings(env);
  registerSecret(settings.privateKey);
  registerSecret(settings.secret);
  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.secret,
    baseUrl: settings.baseUrl,
    logLevel: settings.logLevel,
    logFormat: settings.logFormat,
    ...(options.Octokit === undefined ? {} : { Octokit: options.Octokit }),
    log: options.log ?? (await appLog(settings)),
  });
  await probot.ready();
  const log = probot.log;
  const logger = (pino: typeof log) => redactingLogger(fromPino(pino), processRedactor());
  const queue = createDeliveryQueue({
    dedupe: createDedupe(),
    logger: logger(log),
    botLogins: appLogins(probot),
    ...options.queue,
  });
  const receive = createDeliveryReceiver({
    queue,
    clients: createInstallationClients(probot),
    // `component`, never `name`: pino writes a child's bindings after its parent's without
    // removing a key already there, so `name` would appear twice in one JSON line beside
    // Probot's own "probot" (https://getpino.io/#/docs/child-loggers?id=duplicate-keys-caveat).
    loggerFor: (delivery) => logger(log.child({ component: "event", id: delivery.id })),
  });
  const bodies = createBodyBudget(options.bodies?.budget ?? BODY_BUDGET);
  const server = createServer(
    httpServerOptions(options.http),
    webhookListener({
      path: settings.webhookPath,
      secret: settings.secret,
      receive,
      logger: logger(log.child({ component: "http" })),
      bodies,
      ...(options.bodies?.maxBodyBytes === undefined
        ? {}
        : { maxBodyBytes: options.bodies.maxBodyBytes }),
    }),
  );
  await listen(server, settings);
  const port = (server.address() as AddressInfo).port;
  log.info(`cfa/app: listening on ${settings.host}:${port}${settings.webhookPath}`);
  return {
    settings,
    port,
    queue,
    bodies,
    logger: logger(log),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

function listen(server: Server, settings: ServerSettings): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`cfa/app: port ${settings.port} is in use; set PORT to another one`)
          : error,
      );
    });
    server.listen({ port: settings.port, host: settings.host }, resolve);
  });
}
