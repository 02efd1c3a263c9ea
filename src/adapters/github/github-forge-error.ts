// The one error the GitHub forge throws for a failed GitHub call (REST, GraphQL or git
// push). It carries what a caller acts on (the operation, the HTTP status, GitHub's request
// id for a support ticket) and never a credential: the message is rebuilt from redacted
// text, and `cause` is a redacted copy of Octokit's error, not the error itself (whose
// request and response objects could hold headers).

import type { Redact } from "../../secrets/index.js";

export class GitHubForgeError extends Error {
  override readonly name = "GitHubForgeError";
  /** What was attempted, e.g. "issues.createComment" or "git push". */
  readonly operation: string;
  /** GitHub's HTTP status, when GitHub answered. */
  readonly status: number | undefined;
  /** GitHub's `x-github-request-id`, when GitHub answered. */
  readonly requestId: string | undefined;
  /** False when GitHub never answered (a dropped connection, DNS): not a refusal. */
  readonly answered: boolean;

  constructor(
    message: string,
    fields: {
      operation: string;
      status?: number | undefined;
      requestId?: string | undefined;
      cause?: Error | undefined;
      answered?: boolean;
    },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.operation = fields.operation;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.answered = fields.answered ?? true;
  }
}

// The fields of an Octokit RequestError (or GraphqlResponseError) this adapter reads.
interface OctokitFailure {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  response?: { headers?: Record<string, unknown>; data?: unknown };
  headers?: Record<string, unknown>;
  request?: { method?: unknown; url?: unknown };
  errors?: unknown;
  cause?: unknown;
}

// Octokit's message for a failed connection is often just "Unknown Error"; the reason
// (ECONNRESET, a DNS failure) is on the `cause` it keeps.
function connectionReason(cause: unknown): string {
  if (typeof cause !== "object" || cause === null) return "";
  const { code, message } = cause as { code?: unknown; message?: unknown };
  const parts = [code, message].filter((part): part is string => typeof part === "string");
  return parts.length === 0 ? "" : ` (${parts.join(": ")})`;
}

/** GitHub's HTTP status of an Octokit failure, if it has one. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof GitHubForgeError) return error.status;
  const status = (error as OctokitFailure | null)?.status;
  return typeof status === "number" ? status : undefined;
}

function hint(status: number | undefined, answered: boolean): string {
  if (!answered) return "check the network and GitHub's status, then retry";
  if (status === undefined) return "GitHub refused the request as it stands";
  if (status === 401) return "the token is invalid or expired: renew the installation token";
  if (status === 403 || status === 429) {
    return "the token lacks a permission the app needs, or a rate limit was hit: check the app's permissions, or wait and retry";
  }
  if (status === 404) {
    return "the repository or object does not exist, or the token cannot see it: check owner/repo and the app's installation";
  }
  if (status === 409 || status === 422) return "GitHub refused the request as it stands";
  if (status >= 500) return "GitHub failed: retry later";
  return "see GitHub's message";
}

// GitHub's 422 answers put the useful part in `errors[].message` (or `errors[].code`).
function details(data: unknown): string {
  if (typeof data !== "object" || data === null) return "";
  const errors = (data as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return "";
  const parts = errors.flatMap((entry: unknown) => {
    if (typeof entry === "string") return [entry];
    if (typeof entry !== "object" || entry === null) return [];
    const { message, code, field } = entry as Record<string, unknown>;
    const text = [message, code, field].filter((part) => typeof part === "string").join(" ");
    return text === "" ? [] : [text];
  });
  return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
}

/** Wraps any failure of a GitHub call in a GitHubForgeError, redacting every secret. */
export function toGitHubForgeError(
  operation: string,
  error: unknown,
  redact: Redact,
): GitHubForgeError {
  if (error instanceof GitHubForgeError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as OctokitFailure;
  // Octokit reports a connection failure as status 500 with no response: GitHub said
  // nothing. A GraphQL error is an answer (HTTP 200) with `errors` and no status.
  const answered = failure.response !== undefined || failure.errors !== undefined;
  const status = failure.response === undefined ? undefined : statusOf(error);
  const headers = failure.response?.headers ?? failure.headers ?? {};
  const rawId = headers["x-github-request-id"];
  const requestId = typeof rawId === "string" ? rawId : undefined;
  const original =
    typeof failure.message === "string" ? failure.message : String(error ?? "unknown failure");
  const extra = answered ? details(failure.response?.data) : connectionReason(failure.cause);
  const text = redact(`${original}${extra}`);

  const cause = new Error(text);
  cause.name = typeof failure.name === "string" ? failure.name : "Error";
  cause.stack = `${cause.name}: ${text}`;
  const method = failure.request?.method;
  const url = failure.request?.url;
  Object.assign(cause, {
    status,
    requestId,
    request:
      typeof method === "string" && typeof url === "string"
        ? { method, url: redact(url) }
        : undefined,
  });

  const where = [
    status === undefined ? undefined : `HTTP ${status}`,
    requestId && `request id ${requestId}`,
  ]
    .filter((part): part is string => typeof part === "string")
    .join(", ");
  return new GitHubForgeError(
    `cfa/github: ${operation} failed${where === "" ? "" : ` (${where})`}: ${text}; ${hint(status, answered)}`,
    { operation, status, requestId, cause, answered },
  );
}

/**
 * True when GitHub refused the credentials themselves (401 "Bad credentials": an expired or
 * revoked token, a wrong private key; git's "Authentication failed" on a push). That is the
 * installation's configuration, not the job's fault: the job is left live and
 * carries on at its next wake once fixed. A 403 names a missing permission or a rate limit
 * for one call, and stays what it was.
 */
export function isGitHubCredentials(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isGitHubCredentials);
  if (statusOf(error) === 401) return true;
  return (
    error instanceof GitHubForgeError &&
    error.operation === "git push" &&
    /Authentication failed|returned error: 401|invalid credentials/i.test(error.message)
  );
}

// What git prints when GitHub's side of a push or fetch failed, rather than refused it.
const GIT_OUTAGE =
  /returned error: 5\d\d|Could not resolve host|Failed to connect|Connection (?:timed out|reset|refused)|remote end hung up|early EOF|Operation timed out/i;

/**
 * True when GitHub failed or asked us to slow down (a 5xx, a rate limit, no answer at all)
 * rather than refused the request: an outage the worker waits out (the sweep wakes the job
 * again), not a fault of the job (the outside world is unreliable, not wrong).
 * Called after the client's own retries gave up.
 */
export function isGitHubOutage(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isGitHubOutage);
  const status = statusOf(error);
  if (status !== undefined) {
    if (status >= 500 || status === 429) return true;
    // GitHub's own words, not our hint (which mentions rate limits for every 403).
    const said = error instanceof GitHubForgeError ? error.cause : error;
    return status === 403 && /rate limit/i.test(String((said as Error | undefined)?.message ?? ""));
  }
  if (error instanceof GitHubForgeError) {
    if (error.operation === "git push") return GIT_OUTAGE.test(error.message);
    return !error.answered;
  }
  return false;
}
