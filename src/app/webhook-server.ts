// The webhook endpoint over node:http: read the body, verify the signature,
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
import { HANDLED_EVENTS } from "../github-events/handled-events.js";
import { installationOf } from "../github-events/installation-of.js";
import type { Logger } from "../ports/logger.js";
import { createBodyBudget, type BodyBudget, type BodyBudgetLimits } from "./body-budget.js";
import { QueueFullError } from "./delivery-queue.js";
import type { ReceiveDelivery } from "./receive-delivery.js";

export interface WebhookEndpoint {
  /** The path GitHub posts to (WEBHOOK_PATH). */
  path: string;
  secret: string;
  receive: ReceiveDelivery;
  logger: Logger;
  /** Unverified bodies held at once (default: one budget of BODY_BUDGET per endpoint). */
  bodies?: BodyBudget;
  /** The largest body read (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

/**
 * GitHub caps payloads at 25 MB and does not deliver a larger one
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#payload-cap: "Payloads
 * are capped at 25 MB"). The events the app reads are far smaller: GitHub refuses an issue,
 * comment, review or pull request body past 65,536 characters ("body is too long (maximum
 * is 65536 characters)"; measured at up to 262,144 bytes of UTF-8, dead-claudia/github-limits
 * PR #13), a payload carries at most two such texts, and even escaped as JSON at worst
 * (`\u0000`, six bytes a byte) they stay near 3 MB; an unverified body is held in memory
 * until its signature is checked. A body over this is refused (413) as soon as it passes it,
 * or at once when its Content-Length says so.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** What all unverified bodies may hold together, and how many (body-budget.ts). */
export const BODY_BUDGET: BodyBudgetLimits = { maxBytes: 32 * 1024 * 1024, maxBodies: 256 };

/**
 * The event families whose bodies the endpoint reads: those the app handles (app.yml
 * subscribes to them), and `ping`, which GitHub sends when the webhook is set up, so that a
 * wrong secret shows as a failed ping. Anything else is answered without reading its body.
 */
const READ_EVENTS = new Set(["ping", ...HANDLED_EVENTS.map((e) => e.split(".")[0]!)]);
const HANDLED_FAMILIES = new Set(HANDLED_EVENTS.map((e) => e.split(".")[0]!));

const TOKEN = /^[A-Za-z0-9._-]{1,200}$/;

export function webhookListener(endpoint: WebhookEndpoint): RequestListener {
  const webhooks = new Webhooks({ secret: endpoint.secret });
  const bodies = endpoint.bodies ?? createBodyBudget(BODY_BUDGET);
  const limits = { bodies, maxBodyBytes: endpoint.maxBodyBytes ?? MAX_BODY_BYTES };
  return (req, res) => {
    handle(endpoint, webhooks, limits, req, res).catch((error: unknown) => {
      endpoint.logger.error(
        `cfa/app: the webhook endpoint failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      answer(res, 500, "internal error");
    });
  };
}

interface BodyLimits {
  bodies: BodyBudget;
  maxBodyBytes: number;
}

async function handle(
  endpoint: WebhookEndpoint,
  webhooks: Webhooks,
  limits: BodyLimits,
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
  if (!READ_EVENTS.has(name)) {
    // Not an event the app subscribes to: nothing to verify it for, so its body is never
    // held (GitHub counts any 2xx as delivered).
    return refuseBody(req, res, 200, `ignored: the app does not handle ${name} events`);
  }
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    return refuseBody(req, res, 413, `the body is over ${limits.maxBodyBytes} bytes`);
  }
  const read = await readBody(req, limits);
  switch (read.kind) {
    case "body":
      break;
    case "too-large":
      return refuseBody(req, res, 413, `the body is over ${limits.maxBodyBytes} bytes`);
    case "evicted":
      endpoint.logger.warn(
        `cfa/app: delivery ${id} (${name}): its unfinished body gave way to newer ones (${limits.bodies.bodies()} bodies, ${limits.bodies.heldBytes()} bytes held); refused`,
      );
      // Cut, not answered: draining the rest to answer would read (and allocate) what the
      // budget exists to refuse. GitHub counts a cut connection as a failed delivery.
      req.destroy();
      return;
    case "aborted":
      // The sender went away, or Node's requestTimeout answered 408 and closed it.
      return;
    default: {
      const never: never = read;
      throw new Error(`cfa/app: unhandled body read ${JSON.stringify(never)}`);
    }
  }
  const body = read.body;
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
  if (HANDLED_FAMILIES.has(name) && installationOf(payload) === null) {
    // A repository or organisation webhook pointed at the app's URL by mistake: its
    // deliveries name no installation, so no client can act on them. Said at once, in
    // GitHub's delivery log, rather than accepted and failed later.
    endpoint.logger.warn(
      `cfa/app: delivery ${id} (${name}) names no installation: not from the GitHub App's webhook; refused`,
    );
    return answer(
      res,
      400,
      "this delivery names no installation: it comes from a repository or organisation webhook, not the GitHub App's; remove that webhook and install the app instead",
    );
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

type BodyRead =
  | { kind: "body"; body: string }
  | { kind: "too-large" }
  | { kind: "evicted" }
  | { kind: "aborted" };

/**
 * Reads the body, counting it as it streams in: cut at the limit, or when evicted. Events,
 * not `for await`: leaving an async iterator early destroys the socket, and the refusal
 * must still reach the sender.
 */
function readBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyRead> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      lease.release();
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
      // Whatever else arrives is not kept; the caller answers and closes the connection.
      if (read.kind !== "body") {
        chunks = [];
        req.pause();
      }
      resolve(read);
    };
    const lease = limits.bodies.admit(() => finish({ kind: "evicted" }));
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBodyBytes) return finish({ kind: "too-large" });
      chunks.push(chunk);
      lease.take(chunk.length);
    };
    const onEnd = () => finish({ kind: "body", body: Buffer.concat(chunks).toString("utf8") });
    // The sender went away, or Node's requestTimeout answered 408 and closed it.
    const onClose = () => finish({ kind: "aborted" });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onClose);
  });
}

/**
 * Answers without keeping (the rest of) the body, then closes the connection: what still
 * arrives is read and dropped, never buffered, for a moment so that the answer is not lost
 * to a reset (closing a socket with unread bytes sends RST, and the sender may then discard
 * the answer it had received), then the connection is destroyed whatever the sender does.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, text: string) {
  if (res.headersSent || res.destroyed) {
    req.destroy();
    return;
  }
  // Not `Connection: close`: Node would then destroy the socket as soon as the answer is
  // written, with the sender's bytes unread, and the reset can cost the sender the answer.
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(`${text}\n`, () => {
    setTimeout(() => req.destroy(), DRAIN_AFTER_REFUSAL_MS).unref();
  });
  req.resume();
}

/** How long a refused sender may keep sending (dropped) before the connection is cut. */
const DRAIN_AFTER_REFUSAL_MS = 1_000;

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}
