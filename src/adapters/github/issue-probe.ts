// Between turns the issue is polled with a conditional request
// (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate):
// "Making a conditional request does not count against your primary rate limit if a 304
// response is returned". A 200 that differs from the last read only by the bot's own
// comments is no news either: what the issue looked like is remembered per issue.

import type { Issue } from "../../ports/forge.js";
import type { GitHubCalls } from "./github-calls.js";
import { isStatus } from "./github-calls.js";
import { toGitHubForgeError } from "./github-forge-error.js";
import type { GitHubResponse } from "./github-octokit.js";
import { toIssue } from "./map-responses.js";
import { IssueSchema } from "./response-schemas.js";

/** What conditional reads of an issue compare: the fields a person's action changes. */
export interface IssueFingerprint {
  state: string;
  labels: string[];
  title: string;
  body: string;
  comments: number;
}

export function fingerprintOf(issue: Issue, comments: number): IssueFingerprint {
  return {
    state: issue.state,
    labels: [...issue.labels].sort(),
    title: issue.title,
    body: issue.body,
    comments,
  };
}

const sameFingerprint = (a: IssueFingerprint, b: IssueFingerprint) =>
  JSON.stringify(a) === JSON.stringify(b);

export class IssueProbe {
  /** Per issue: the ETag of the last conditional read and what the issue looked like. */
  private readonly etags = new Map<number, string>();
  private readonly fingerprints = new Map<number, IssueFingerprint>();

  constructor(private readonly calls: GitHubCalls) {}

  /** What the issue looks like now, read another way (the job view). */
  saw(number: number, fingerprint: IssueFingerprint): void {
    this.fingerprints.set(number, fingerprint);
  }

  /** The bot's own comment is no news to a conditional read of the issue. */
  commented(number: number): void {
    const known = this.fingerprints.get(number);
    if (known) this.fingerprints.set(number, { ...known, comments: known.comments + 1 });
  }

  async changed(number: number): Promise<boolean> {
    const etag = this.etags.get(number);
    let response: GitHubResponse;
    try {
      response = await this.calls.octokit.rest.issues.get({
        ...this.calls.repo,
        issue_number: number,
        ...(etag === undefined ? {} : { headers: { "if-none-match": etag } }),
      });
    } catch (error) {
      if (isStatus(error, 304)) {
        this.calls.countedNotModified();
        return false;
      }
      this.calls.counted();
      throw toGitHubForgeError("issues.get", error, this.calls.redact);
    }
    this.calls.counted();
    const fresh = response.headers?.["etag"];
    if (typeof fresh === "string") this.etags.set(number, fresh);
    const issue = this.calls.parse("issues.get", IssueSchema, response.data);
    const now = fingerprintOf(toIssue(issue), issue.comments ?? -1);
    const before = this.fingerprints.get(number);
    this.fingerprints.set(number, now);
    return before === undefined || !sameFingerprint(before, now);
  }
}
