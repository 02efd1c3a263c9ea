// How long the webhook server waits for a request (without these, Node's
// defaults let a connection hold its headers for 60 s and its body for 300 s, and checked
// them only every 30 s). GitHub gives a delivery 10 seconds to be answered and then counts
// it as failed (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries),
// so a request still arriving after that serves nobody. Node answers an expired request
// itself: 408 and the connection closed (node:http, `server.requestTimeout`,
// `server.headersTimeout`; both checked every `connectionsCheckingInterval`, default 30 s,
// https://nodejs.org/api/http.html#httpcreateserveroptions-requestlistener).

import type { ServerOptions } from "node:http";

export interface HttpLimits {
  /** From the connection's first byte to the end of the headers. */
  headersTimeoutMs: number;
  /** From the first byte to the end of the body: GitHub's own patience. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (Node's default, stated). */
  keepAliveTimeoutMs: number;
  /** How often Node looks for expired requests; the timeouts are this coarse. */
  checkIntervalMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

export function httpServerOptions(limits: HttpLimits = HTTP_LIMITS): ServerOptions {
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    // Node refuses it too; said here in the app's words.
    throw new RangeError("cfa/app: headersTimeoutMs must not exceed requestTimeoutMs");
  }
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
}
