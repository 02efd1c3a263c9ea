// Riding out infrastructure faults (the outside world is unreliable, not
// wrong). A connection error, a timeout, 408, 409, 429 and every 5xx (529 overloaded
// included) are retried with exponential backoff and jitter for as long as the adapter's
// patience lasts — minutes, not the SDK's ~7 seconds — honouring the server's `retry-after-ms`
// and `retry-after`; then the call throws ModelUnavailableError, the agreed seam: the engine
// ends the wake with the job live and tries again later, spending no retry budget. Any other
// error (400, 401, 403, 404, 413…) fails at once; a credentials error (401, 402, 403, none
// found) too, as ModelUnavailableError with reason "credentials" (credentials-fault.ts).
//
// The classification is the SDK's own (@anthropic-ai/sdk 1.12.0 src/client.ts shouldRetry and
// retryRequest: `x-should-retry` first, then 408/409/429/>=500; `retry-after-ms`, then
// `retry-after` in seconds or as an HTTP date), and the API's error list
// (https://platform.claude.com/docs/en/api/errors: 429 rate_limit_error, 500 api_error,
// 529 overloaded_error; rate limits answer with `retry-after`,
// https://platform.claude.com/docs/en/api/rate-limits). The SDK's own retries are turned off
// (maxRetries 0) so that this is the one retry loop, with a clock and a sleep that tests inject.

import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { ModelUnavailableError } from "../../ports/model.js";
import { credentialsFault } from "./credentials-fault.js";

/** Default patience: how long one model call keeps retrying before the wake gives up. */
export const DEFAULT_PATIENCE_MS = 15 * 60_000;
/** The first backoff step and the cap of one wait (before jitter). */
export const FIRST_DELAY_MS = 2_000;
export const MAX_DELAY_MS = 60_000;

export interface PatienceOptions {
  /** How long to keep trying, from the first failed attempt. Default 15 minutes. */
  patienceMs?: number;
  /** Waits `ms`, or rejects when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch. Default: Date.now. */
  now?: () => number;
  /** In [0, 1). Default: Math.random. */
  random?: () => number;
}

/** What a failed attempt says about trying again. */
export interface Fault {
  retryable: boolean;
  /** The wait the server asked for, when it did. */
  waitMs?: number;
  /** One line for the log and the ModelUnavailableError (already redacted by the caller). */
  summary: string;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the patience runs out. `describe`
 * turns an error into a Fault (and redacts it); `onRetry` hears about every wait.
 */
export async function withPatience<T>(
  attempt: () => Promise<T>,
  describe: (error: unknown) => Fault,
  options: PatienceOptions & {
    signal?: AbortSignal;
    onRetry?: (info: { attempt: number; waitMs: number; fault: Fault }) => void;
    /** Names what is unavailable in the final error, e.g. "the Anthropic API". */
    what: string;
  },
): Promise<T> {
  const patienceMs = options.patienceMs ?? DEFAULT_PATIENCE_MS;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  let firstFailure: number | undefined;
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      const fault = describe(error);
      if (!fault.retryable || options.signal?.aborted === true) throw error;
      const at = now();
      firstFailure ??= at;
      const deadline = firstFailure + patienceMs;
      const waitMs = fault.waitMs ?? backoffMs(attempts, random);
      if (at + waitMs > deadline) {
        const minutes = Math.max(1, Math.round((at - firstFailure) / 60_000));
        throw new ModelUnavailableError(
          `${options.what} stayed unavailable for about ${minutes} min over ${attempts} ` +
            `attempt${attempts === 1 ? "" : "s"} (last: ${fault.summary}); the job waits and ` +
            `tries again later`,
          { since: new Date(firstFailure).toISOString(), attempts, last: fault.summary },
        );
      }
      options.onRetry?.({ attempt: attempts, waitMs, fault });
      await sleep(waitMs, options.signal);
    }
  }
}

/** Exponential from FIRST_DELAY_MS, capped at MAX_DELAY_MS, with up to half of it as jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(base * (1 - random() * 0.5));
}

/** The SDK's retry rule, applied to what the SDK threw (see the note at the top). */
export function sdkFault(error: unknown, summary: string): Fault {
  if (error instanceof APIUserAbortError) return { retryable: false, summary };
  // Credentials refused or missing fail every retry alike (credentials-fault.ts).
  if (credentialsFault(error) !== null) return { retryable: false, summary };
  // APIConnectionTimeoutError extends APIConnectionError.
  if (error instanceof APIConnectionError) return { retryable: true, summary };
  if (error instanceof APIError && typeof error.status === "number") {
    const headers = error.headers;
    const waitMs = serverWaitMs(headers);
    const should = headers?.get("x-should-retry");
    const retryable =
      should === "true"
        ? true
        : should === "false"
          ? false
          : [408, 409, 429].includes(error.status) || error.status >= 500;
    return { retryable, summary, ...(waitMs !== undefined ? { waitMs } : {}) };
  }
  return { retryable: false, summary };
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date); only a positive wait counts. */
export function serverWaitMs(
  headers: { get(name: string): string | null } | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = headers?.get("retry-after");
  if (after === null || after === undefined || after.trim() === "") return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  const wait = date - now();
  return wait > 0 ? wait : undefined;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
