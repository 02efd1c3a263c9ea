// Records every GitHub request nock intercepts and validates it against the OpenAPI subset.
// Validation cannot fail the request from inside nock's event, so problems are collected
// and reported by assertAllValid() (the mock session calls it after each test).

import type nock from "nock";
import { GitHubRequestInvalid } from "./github-request-invalid.js";
import { onGitHubScope } from "./nock-github.js";
import {
  GITHUB_API_ORIGIN,
  createGitHubValidator,
  type GitHubValidator,
  type GitHubValidatorOptions,
} from "./openapi-validator.js";

export interface GitHubCall {
  readonly method: string;
  /** The path as sent (percent-encoded, without the query). */
  readonly path: string;
  /** undefined when no operation in the subset matches the route. */
  readonly operationId: string | undefined;
}

export interface RecordedGitHubRequest extends GitHubCall {
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body, or undefined when none was sent. */
  readonly body: unknown;
  readonly error: GitHubRequestInvalid | undefined;
}

export interface GitHubRecorder {
  /** Validate and record the requests this scope intercepts too. */
  attach(scope: nock.Scope): void;
  calls(): GitHubCall[];
  requests(): RecordedGitHubRequest[];
  /** The bodies sent to one operation, in order: assert them with `toMatchObject`. */
  bodies(operationId: string): unknown[];
  invalid(): GitHubRequestInvalid[];
  /** Throws an AggregateError listing every invalid request, if there was any. */
  assertAllValid(): void;
  /** Detach from every scope. */
  stop(): void;
}

export interface RecordOptions extends GitHubValidatorOptions {
  readonly validator?: GitHubValidator;
}

// What nock passes to a scope's "request" listener (an http.ClientRequest-like object).
interface InterceptedRequest {
  readonly method?: string;
  readonly path?: string;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Starts recording. With a scope, only that scope (add more with `attach`); without one,
 * every scope made by nockGitHub(), including those made later (scopes made with plain
 * `nock(...)` are not seen: make GitHub scopes with nockGitHub()).
 */
export function recordAndValidate(scope?: nock.Scope, options: RecordOptions = {}): GitHubRecorder {
  const validator = options.validator ?? createGitHubValidator(options);
  const recorded: RecordedGitHubRequest[] = [];
  const attached = new Map<nock.Scope, (...args: unknown[]) => void>();

  const record = (req: InterceptedRequest, body: string): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.path ?? "/", GITHUB_API_ORIGIN);
    const base = { method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
    try {
      const valid = validator.validate({ method, url: req.path ?? "/", body });
      recorded.push({
        ...base,
        operationId: valid.operationId,
        body: valid.body,
        error: undefined,
      });
    } catch (error) {
      // Never throw inside nock's event: record the failure and let assertAllValid report it.
      const invalid =
        error instanceof GitHubRequestInvalid
          ? error
          : new GitHubRequestInvalid(method, url.pathname, undefined, [
              `the validator itself failed: ${error instanceof Error ? error.message : String(error)}`,
            ]);
      recorded.push({
        ...base,
        operationId: invalid.operationId,
        body: parseJson(body),
        error: invalid,
      });
    }
  };

  const attach = (target: nock.Scope): void => {
    if (attached.has(target)) return;
    const listener = (...args: unknown[]): void => {
      const [req, , body] = args;
      record((req ?? {}) as InterceptedRequest, typeof body === "string" ? body : "");
    };
    target.on("request", listener);
    attached.set(target, listener);
  };

  const unsubscribe = scope === undefined ? onGitHubScope(attach) : undefined;
  if (scope !== undefined) attach(scope);

  const invalid = (): GitHubRequestInvalid[] =>
    recorded.flatMap((entry) => (entry.error === undefined ? [] : [entry.error]));

  return {
    attach,
    calls: () => recorded.map(({ method, path, operationId }) => ({ method, path, operationId })),
    requests: () => [...recorded],
    bodies: (operationId) =>
      recorded.filter((entry) => entry.operationId === operationId).map((entry) => entry.body),
    invalid,
    assertAllValid() {
      const errors = invalid();
      if (errors.length === 0) return;
      throw new AggregateError(
        errors,
        `cfa/testkit: ${errors.length} GitHub request(s) do not match GitHub's OpenAPI description:\n` +
          errors.map((error) => `  - ${error.message}`).join("\n"),
      );
    },
    stop() {
      unsubscribe?.();
      for (const [target, listener] of attached) target.off("request", listener);
      attached.clear();
    },
  };
}
