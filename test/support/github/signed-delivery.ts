// A webhook delivery as GitHub sends it: POST with X-GitHub-Event, X-GitHub-Delivery and
// X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the webhook secret,
// https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries).

import { createHmac } from "node:crypto";
import { request } from "node:http";

export interface SentDelivery {
  status: number;
  /** From the request's start to the answer's end, in ms. */
  ms: number;
}

export interface SignedDelivery {
  body: string;
  headers: Record<string, string | number>;
}

export function signDelivery(
  secret: string,
  delivery: { id: string; name: string; payload: unknown },
): SignedDelivery {
  const body = JSON.stringify(delivery.payload);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "x-github-event": delivery.name,
      "x-github-delivery": delivery.id,
      "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      "user-agent": "GitHub-Hookshot/cfa-test",
    },
  };
}

/**
 * node:http on a new connection per delivery, as a webhook sender does (undici's fetch
 * costs the sender more CPU than the server spends answering).
 */
export function postDelivery(url: string, signed: SignedDelivery): Promise<SentDelivery> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: "POST", agent: false, headers: signed.headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
      );
    });
    req.on("error", reject);
    req.end(signed.body);
  });
}

export function sendDelivery(
  url: string,
  secret: string,
  delivery: { id: string; name: string; payload: unknown },
): Promise<SentDelivery> {
  return postDelivery(url, signDelivery(secret, delivery));
}

/** A port nothing listens on now (Probot's Server treats port 0 as its default, 3000). */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}
