// `.github/cfa.yml` on the default branch, read two ways: with the job view's GraphQL query
// (a blob of the default branch's HEAD, handed out once to the next read), or on its own
// through the contents API.

import type * as z from "zod";
import { isStatus, type GitHubCalls } from "./github-calls.js";
import { GitHubForgeError } from "./github-forge-error.js";
import { ContentSchema } from "./response-schemas.js";

/** Where a repository keeps its cfa-bot configuration (docs/configuration.md). */
export const CONFIG_PATH = ".github/cfa.yml";

/** The config as the job view's query returns it: a Blob, another kind of object, or none. */
export interface ConfigObject {
  __typename: string;
  text?: string | null | undefined;
  isTruncated?: boolean | undefined;
  byteSize?: number | undefined;
}

export function configFromObject(config: ConfigObject | null): string | null {
  if (config === null) return null;
  if (config.__typename !== "Blob") {
    throw new GitHubForgeError(
      `cfa/github: ${CONFIG_PATH} is not a file on the default branch; make it a YAML file or remove it`,
      { operation: "graphql.jobView" },
    );
  }
  if (config.isTruncated === true || typeof config.text !== "string") {
    throw new GitHubForgeError(
      `cfa/github: ${CONFIG_PATH} is too large or not text (${config.byteSize ?? "?"} bytes); keep it a small YAML file`,
      { operation: "graphql.jobView" },
    );
  }
  return config.text;
}

export class RepositoryConfig {
  /** `.github/cfa.yml` as the last job view read it, for the next read() only. */
  private prefetched: { text: string | null } | undefined;

  constructor(private readonly calls: GitHubCalls) {}

  prefetch(text: string | null): void {
    this.prefetched = { text };
  }

  async read(): Promise<string | null> {
    const prefetched = this.prefetched;
    this.prefetched = undefined;
    if (prefetched !== undefined) return prefetched.text;
    return this.readFile(CONFIG_PATH);
  }

  /**
   * Any file of the default branch through the contents API: without `ref`, GitHub reads
   * the default branch ("ref: … Default: the repository's default branch",
   * https://docs.github.com/en/rest/repos/contents#get-repository-content). Null when absent.
   */
  async readFile(path: string): Promise<string | null> {
    const { octokit, repo } = this.calls;
    let content: z.infer<typeof ContentSchema>;
    try {
      content = await this.calls.call("repos.getContent", ContentSchema, () =>
        octokit.rest.repos.getContent({ ...repo, path }),
      );
    } catch (error) {
      if (isStatus(error, 404)) return null;
      throw error;
    }
    if (Array.isArray(content) || content.type !== "file") {
      throw new GitHubForgeError(
        `cfa/github: ${path} is not a file on the default branch; make it a file or remove it`,
        { operation: "repos.getContent" },
      );
    }
    if (content.encoding !== "base64" || content.content === undefined) {
      throw new GitHubForgeError(
        `cfa/github: ${path} is too large for the contents API (${content.size ?? "?"} bytes); keep it under 1 MB`,
        { operation: "repos.getContent" },
      );
    }
    return Buffer.from(content.content, "base64").toString("utf8");
  }
}
