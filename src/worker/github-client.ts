// The worker's Octokit: GitHub's API URL from the runner (GitHub Enterprise Server too), and
// either the workflow's token or the app itself (an id and private key: installation tokens
// minted and refreshed for as long as the run lasts, past a token's one hour). One client serves
// the forge adapter, the sweep and the router.
//
// Like Probot's client it retries and paces: @octokit/plugin-retry retries a
// 5xx or a dropped connection with growing waits, and @octokit/plugin-throttling spaces
// content-creating requests and waits out a rate limit for as long as GitHub says:
// "If the `retry-after` response header is present, you should not retry your request until
// after that many seconds has elapsed … Otherwise, wait for at least one minute"
// (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit).
// An outage or a limit is waited out, not turned into a failed job.

import { createAppAuth } from "@octokit/auth-app";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";
import Bottleneck from "bottleneck";
import type { GitHubOctokit } from "../adapters/github/index.js";
import type { GitHubRequester } from "../github-events/github-cues.js";
import { systemClock, type Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import { installationTokenCache, type InstallationTokenCache } from "./installation-token-cache.js";

export type WorkerGitHub = GitHubOctokit &
  GitHubRequester & {
    /**
     * A token for git over https, asked for before each fetch and push: an app's installation
     * token is refreshed here when it is near its end, so a push late in a long run works.
     */
    token(): Promise<string>;
    /**
     * Drops the installation token git was refused with, so `token()` mints a new one
     * (the workflow's token cannot be replaced: nothing to drop).
     */
    forgetToken(): void;
    /** Every credential this client has used so far (the redactor hides each of them). */
    secrets(): readonly string[];
  };

/** How the worker signs in: the workflow's token, or the GitHub App itself. */
export type WorkerCredentials =
  | { kind: "token"; token: string }
  | {
      kind: "app";
      appId: number;
      privateKey: string;
      /** Looked up from the repository when absent (GET /repos/{owner}/{repo}/installation). */
      installationId?: number | undefined;
      owner: string;
      repo: string;
    };

/** GitHub's pace. Production uses GitHub's numbers; tests shrink them so nothing really waits. */
export interface GitHubPacing {
  /** Milliseconds one second of `retry-after` (or of a retry's backoff) stands for. */
  secondMs: number;
  /** The least time between two content-creating requests (GitHub asks for about a second). */
  writeIntervalMs: number;
}

export const GITHUB_PACING: GitHubPacing = { secondMs: 1000, writeIntervalMs: 1000 };

/** Retries of a 5xx or a dropped connection: waits of 1, 4, 9, 16, 25 and 36 s, ~1.5 min. */
const SERVER_RETRIES = 6;
/**
 * Answers, never retried: @octokit/plugin-retry 8.1.1 retries every status >= 400 not in its
 * `doNotRetry` list, whose default is [400, 401, 403, 404, 410, 422, 451]
 * (dist-src/index.js; https://github.com/octokit/plugin-retry.js#readme, "To override the
 * default doNotRetry list"). A 409 Conflict says the request does not fit the resource as it
 * stands — the cancel of a run that completed meanwhile — and waiting does not change that:
 * retried, it held the lead's run 1 + 4 + 9 + 16 + 25 + 36 s per cancel.
 */
export const DO_NOT_RETRY: readonly number[] = [400, 401, 403, 404, 409, 410, 422, 451];
/** Rate limits waited out per request; a primary limit resets within the hour. */
const LIMIT_RETRIES = 4;
const LONGEST_LIMIT_WAIT_S = 60 * 60;

const WorkerOctokit = Octokit.plugin(throttling, retry);

export interface WorkerGitHubOptions {
  credentials: WorkerCredentials;
  baseUrl: string;
  logger: Logger;
  /** The clock token expiry is read against (default: the system clock). */
  clock?: Clock;
  pacing?: GitHubPacing;
}

export function createWorkerGitHub(options: WorkerGitHubOptions): WorkerGitHub {
  const { logger, credentials } = options;
  const pacing = options.pacing ?? GITHUB_PACING;
  const log = {
    // Octokit logs every failed request as an error, including the 404s the forge expects
    // (no config file, a branch already gone); the forge reports real failures.
    debug: (message: string) => logger.debug(message),
    info: (message: string) => logger.debug(message),
    warn: (message: string) => logger.debug(message),
    error: (message: string) => logger.debug(message),
  };
  const waitOut =
    (what: string) =>
    (retryAfter: number, request: { method: string; url: string }, _o: unknown, count: number) => {
      const retrying = count < LIMIT_RETRIES && retryAfter <= LONGEST_LIMIT_WAIT_S;
      logger.warn(
        `cfa/github: ${what} on ${request.method} ${request.url}; ${retrying ? `waiting ${retryAfter} s, then retrying` : "giving up"}`,
      );
      return retrying;
    };
  const common = {
    baseUrl: options.baseUrl,
    userAgent: "cfa-bot-worker",
    log,
    retry: {
      retries: SERVER_RETRIES,
      retryAfterBaseValue: pacing.secondMs,
      doNotRetry: [...DO_NOT_RETRY],
    },
    throttle: {
      onRateLimit: waitOut("GitHub's rate limit is used up"),
      onSecondaryRateLimit: waitOut("GitHub's secondary rate limit was hit"),
      retryAfterBaseValue: pacing.secondMs,
      ...paceGroups(pacing),
    },
  };

  if (credentials.kind === "token") {
    const octokit = new WorkerOctokit({ ...common, auth: credentials.token });
    return asWorkerGitHub(octokit, {
      token: async () => credentials.token,
      forgetToken: () => undefined,
      secrets: () => [credentials.token],
    });
  }

  const cache = installationTokenCache(options.clock ?? systemClock);
  let installationId = credentials.installationId;
  const auth = {
    appId: credentials.appId,
    privateKey: credentials.privateKey,
    cache,
    log,
  };
  // The app's own client (a JWT) finds the installation on this repository once.
  const findInstallation = async (): Promise<number> => {
    if (installationId !== undefined) return installationId;
    const app = new WorkerOctokit({ ...common, authStrategy: createAppAuth, auth });
    const { data } = await app.request("GET /repos/{owner}/{repo}/installation", {
      owner: credentials.owner,
      repo: credentials.repo,
    });
    installationId = data.id;
    return installationId;
  };
  let client: InstanceType<typeof WorkerOctokit> | undefined;
  const installation = async () => {
    client ??= new (WorkerOctokit.plugin(refreshOn401(cache, logger) as never))({
      ...common,
      authStrategy: createAppAuth,
      auth: { ...auth, installationId: await findInstallation() },
    });
    return client;
  };
  return lazyWorkerGitHub(installation, {
    token: async () => {
      const octokit = await installation();
      const minted = (await octokit.auth({ type: "installation" })) as { token: string };
      return minted.token;
    },
    forgetToken: () => cache.forget(),
    secrets: () => [credentials.privateKey, ...cache.tokens()],
  });
}

/**
 * Groups for plugin-throttling's pacing: GitHub's numbers by default (the plugin's own
 * groups), or ones with the given spacing.
 */
function paceGroups(pacing: GitHubPacing): Record<string, Bottleneck.Group> {
  if (pacing.writeIntervalMs >= 1000 && pacing.secondMs >= 1000) return {};
  const group = (minTime: number) => new Bottleneck.Group({ maxConcurrent: 1, minTime });
  return {
    write: group(pacing.writeIntervalMs),
    notifications: group(pacing.writeIntervalMs),
    search: group(pacing.writeIntervalMs),
  };
}

/**
 * A token GitHub no longer accepts before its time (revoked, or the clock is off): forget
 * every cached token and send the request once more with a new one. auth-app retries a 401
 * only in the first seconds after minting (replication lag), not later.
 */
function refreshOn401(cache: InstallationTokenCache, logger: Logger) {
  return (octokit: Pick<Octokit, "hook">) => {
    octokit.hook.wrap("request", async (request, options) => {
      try {
        return await request(options);
      } catch (error) {
        if ((error as { status?: unknown }).status !== 401) throw error;
        logger.info("cfa/github: GitHub refused the installation token (401); minting a new one");
        cache.forget();
        return request(options);
      }
    });
  };
}

interface Credentials {
  token(): Promise<string>;
  forgetToken(): void;
  secrets(): readonly string[];
}

/** Any @octokit/rest Octokit as the worker's client (tests pass their own). */
export function asWorkerGitHub(octokit: Octokit, credentials: Credentials): WorkerGitHub {
  return lazyWorkerGitHub(async () => octokit, credentials);
}

/** The client, built on first use (an app looks its installation up first). */
function lazyWorkerGitHub(get: () => Promise<Octokit>, credentials: Credentials): WorkerGitHub {
  const rest = new Proxy({} as Octokit["rest"], {
    get: (_target, namespace: string) =>
      new Proxy(
        {},
        {
          get:
            (_inner, method: string) =>
            async (params: Record<string, unknown>): Promise<unknown> => {
              const octokit = await get();
              const group = (octokit.rest as unknown as Record<string, Record<string, unknown>>)[
                namespace
              ];
              const fn = group?.[method];
              if (typeof fn !== "function") {
                throw new Error(`cfa/github: no REST method ${namespace}.${method}`);
              }
              return (fn as (p: Record<string, unknown>) => Promise<unknown>)(params);
            },
        },
      ),
  });
  return {
    rest: rest as unknown as GitHubOctokit["rest"],
    graphql: async (query: string, variables: Record<string, unknown>) =>
      (await get()).graphql(query, variables),
    request: async (route: string, params?: Record<string, unknown>) =>
      (await get()).request(route, params),
    paginate: async (
      route: string,
      params?: Record<string, unknown>,
      mapFn?: (response: { data: unknown }) => unknown[],
    ) => {
      const octokit = await get();
      const paginate = octokit.paginate.bind(octokit) as unknown as (
        route: string,
        params?: Record<string, unknown>,
        mapFn?: (response: { data: unknown }) => unknown[],
      ) => Promise<unknown[]>;
      return mapFn === undefined ? paginate(route, params) : paginate(route, params, mapFn);
    },
    token: credentials.token,
    forgetToken: credentials.forgetToken,
    secrets: credentials.secrets,
  };
}
