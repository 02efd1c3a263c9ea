// The plumbing every part of the GitHub forge shares: each REST or GraphQL call counted (the
// job's note reports calls per job), each response validated before use, each failure a
// GitHubForgeError with secrets redacted.

import * as z from "zod";
import type { Redact } from "../../secrets/index.js";
import { GitHubForgeError, statusOf, toGitHubForgeError } from "./github-forge-error.js";
import type { GitHubOctokit, GitHubResponse } from "./github-octokit.js";

/** A response whose body the forge does not read. */
export const NO_CONTENT = z.unknown();

export function isStatus(error: unknown, ...statuses: number[]): boolean {
  const status = statusOf(error);
  return status !== undefined && statuses.includes(status);
}

export class GitHubCalls {
  /** The repository every call is about, as Octokit's parameters and GraphQL's variables. */
  readonly repo: { owner: string; repo: string };
  private made = 0;
  private notModifiedCount = 0;

  constructor(
    readonly octokit: GitHubOctokit,
    owner: string,
    repo: string,
    readonly redact: Redact,
  ) {
    this.repo = { owner, repo };
  }

  /** Requests that counted against the rate limit (each page of a list counts). */
  apiCalls(): number {
    return this.made;
  }

  /** Conditional requests GitHub answered 304 Not Modified: free against the rate limit. */
  notModified(): number {
    return this.notModifiedCount;
  }

  /** For a request made outside call() (a conditional read reads the headers itself). */
  counted(): void {
    this.made += 1;
  }

  countedNotModified(): void {
    this.notModifiedCount += 1;
  }

  async call<S extends z.ZodType>(
    operation: string,
    schema: S,
    run: () => Promise<GitHubResponse>,
  ): Promise<z.infer<S>> {
    this.made += 1;
    let response: GitHubResponse;
    try {
      response = await run();
    } catch (error) {
      throw toGitHubForgeError(operation, error, this.redact);
    }
    return this.parse(operation, schema, response.data);
  }

  async graphql<S extends z.ZodType>(
    operation: string,
    schema: S,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<z.infer<S>> {
    return this.call(operation, schema, async () => ({
      data: await this.octokit.graphql(query, variables),
    }));
  }

  async list<S extends z.ZodType>(
    operation: string,
    route: string,
    params: Record<string, unknown>,
    item: S,
  ): Promise<z.infer<S>[]> {
    let items: unknown[];
    try {
      items = await this.octokit.paginate(
        route,
        { ...this.repo, ...params, per_page: 100 },
        (response) => {
          this.made += 1;
          return Array.isArray(response.data) ? response.data : [response.data];
        },
      );
    } catch (error) {
      // The page that failed was a call too.
      this.made += 1;
      throw toGitHubForgeError(operation, error, this.redact);
    }
    return this.parse(operation, z.array(item), items);
  }

  parse<S extends z.ZodType>(operation: string, schema: S, data: unknown): z.infer<S> {
    const parsed = schema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw new GitHubForgeError(
      `cfa/github: ${operation} returned a response this adapter cannot read: ${this.redact(
        z.prettifyError(parsed.error),
      )}; GitHub's API may have changed: report it with the operation name`,
      { operation },
    );
  }
}
