// The webhook endpoint over node:http (issue 10 §2): read the body, verify the signature,
// hand the delivery to the queue and answer — no API call, no client made, no work done
// while GitHub waits (it gives a delivery 10 seconds:
// https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries).
//
// Why not Probot's Server: its middleware (@octokit/webhooks) answers only after every
// handler settled, and before a handler runs it logs the request through pino-http and
// builds an authenticated Octokit for the event; measured under a burst, those were most
// of the time to answer (bench/server.bench.ts). Probot still makes the GitHub clients
// (installation-clients.ts) and the signature check is @octokit/webhooks' own.

import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Webhooks } from "@octokit/webhooks";
import { AppEventError } from "../github-events/app-event-error.js";
import type { Logger } from "../ports/logger.js";
import { QueueFullError } from "./delivery-queue.js";
import type { ReceiveDelivery } from "./receive-delivery.js";

export interface WebhookEndpoint {
  /** The path GitHub posts to (WEBHOOK_PATH). */
  path: string;
  secret: string;
  receive: ReceiveDelivery;
  logger: Logger;
}

/**
 * GitHub caps payloads at 25 MB (https://docs.github.com/en/webhooks/webhook-events-and-payloads#payload-cap);
 * the events the app reads (issues, comments, reviews, pull requests) are far smaller, and
 * an unverified body is held in memory until its signature is checked.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const TOKEN = /^[A-Za-z0-9._-]{1,200}$/;

export function webhookListener(endpoint: WebhookEndpoint): RequestListener {
  const webhooks = new Webhooks({ secret: endpoint.secret });
  return (req, res) => {
    handle(endpoint, webhooks, req, res).catch((error: unknown) => {
      endpoint.logger.error(
        `cfa/app: the webhook endpoint failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      answer(res, 500, "internal error");
    });
  };
}

async function handle(
  endpoint: WebhookEndpoint,
  webhooks: Webhooks,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "") || "/";
  if (req.method === "GET" && path === "/ping") {
    // Probot's health check, kept for load balancers and uptime checks set up for it.
    res.writeHead(200, { "content-type": "text/plain" }).end("PONG");
    return;
  }
  if (path !== endpoint.path.replace(/\/+$/, "")) return answer(res, 404, "not found");
  if (req.method !== "POST") return answer(res, 405, "POST only");
  if (!/^\s*application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    // The app's webhook is created with content type JSON (app.yml).
    return answer(res, 415, "content-type must be application/json");
  }
  const name = header(req, "x-github-event");
  const id = header(req, "x-github-delivery");
  const signature = header(req, "x-hub-signature-256");
  if (name === undefined || id === undefined || signature === undefined) {
    return answer(
      res,
      400,
      "X-GitHub-Event, X-GitHub-Delivery and X-Hub-Signature-256 are required",
    );
  }
  if (!TOKEN.test(name) || !TOKEN.test(id))
    return answer(res, 400, "malformed event or delivery id");
  const body = await readBody(req);
  if (body === null) return answer(res, 413, `the body is over ${MAX_BODY_BYTES} bytes`);
  if (!(await webhooks.verify(body, signature))) {
    endpoint.logger.warn(
      `cfa/app: delivery ${id} (${name}): the signature does not match WEBHOOK_SECRET; refused`,
    );
    return answer(res, 400, "signature does not match");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body) as unknown;
  } catch {
    return answer(res, 400, "the body is not JSON");
  }
  try {
    const accepted = endpoint.receive({ id, name, payload });
    return answer(res, accepted === "queued" ? 202 : 200, accepted);
  } catch (error) {
    if (error instanceof QueueFullError) {
      endpoint.logger.error(error.message);
      return answer(res, 503, "busy: redeliver later");
    }
    if (error instanceof AppEventError) {
      // GitHub's format changed, or the delivery is not GitHub's: shown as failed.
      endpoint.logger.error(error.message);
      return answer(res, 400, error.message);
    }
    throw error;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      req.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}
