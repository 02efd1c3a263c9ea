// The worker's Octokit: the workflow's token, GitHub's API URL from the runner (GitHub
// Enterprise Server too). One client serves the forge adapter, the sweep and the router.

import { Octokit } from "@octokit/rest";
import type { GitHubOctokit } from "../adapters/github/index.js";
import type { GitHubRequester } from "../github-events/github-cues.js";
import type { Logger } from "../ports/logger.js";

export type WorkerGitHub = GitHubOctokit & GitHubRequester;

export function createWorkerGitHub(options: {
  token: string;
  baseUrl: string;
  logger: Logger;
}): WorkerGitHub {
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: "cfa-bot-worker",
    // Octokit logs every failed request as an error, including the 404s the forge
    // expects (no config file, a branch already gone); the forge reports real failures.
    log: {
      debug: (message: string) => options.logger.debug(message),
      info: (message: string) => options.logger.debug(message),
      warn: (message: string) => options.logger.debug(message),
      error: (message: string) => options.logger.debug(message),
    },
  });
  return asWorkerGitHub(octokit);
}

/** Any @octokit/rest Octokit as the worker's client (tests pass their own). */
export function asWorkerGitHub(octokit: Octokit): WorkerGitHub {
  const original = octokit.paginate.bind(octokit) as unknown as (
    route: string,
    params?: Record<string, unknown>,
    mapFn?: (response: { data: unknown }) => unknown[],
  ) => Promise<unknown[]>;
  return {
    rest: octokit.rest,
    graphql: (query: string, variables: Record<string, unknown>) =>
      octokit.graphql(query, variables),
    request: (route: string, params?: Record<string, unknown>) => octokit.request(route, params),
    paginate: (
      route: string,
      params?: Record<string, unknown>,
      mapFn?: (response: { data: unknown }) => unknown[],
    ) => (mapFn === undefined ? original(route, params) : original(route, params, mapFn)),
  };
}
