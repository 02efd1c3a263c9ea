// A wake's whole view of its job in one GraphQL query (job-view-query.ts): the issue, its
// comments, who labelled it, the pull request and its reviews, the default branch and the
// config, with older pages fetched only for a long issue or pull request. What it learns on
// the way (the default branch, the config, the issue's fingerprint, the pull requests seen)
// is handed to whoever keeps it, in the order it was read.

import type { Issue, JobView, Review } from "../../ports/forge.js";
import type { GitHubCalls } from "./github-calls.js";
import { GitHubForgeError } from "./github-forge-error.js";
import { fingerprintOf, type IssueFingerprint } from "./issue-probe.js";
import {
  JOB_VIEW_QUERY,
  JobViewDataSchema,
  OLDER_COMMENTS_QUERY,
  OLDER_REVIEWS_QUERY,
  OlderCommentsSchema,
  OlderReviewsSchema,
  toGraphqlComment,
  toGraphqlIssue,
  toGraphqlPullRequest,
  toGraphqlReview,
  toLabelEvents,
  type PullRequestNode,
} from "./job-view-query.js";
import { CONFIG_PATH, configFromObject } from "./repository-config.js";

/** Where what the query learns besides the view goes. */
export interface JobViewSinks {
  defaultBranch(name: string): void;
  config(text: string | null): void;
  issue(number: number, fingerprint: IssueFingerprint): void;
  pullRequest(number: number, nodeId: string, draft: boolean): void;
}

export async function readJobView(
  calls: GitHubCalls,
  repoUrl: string,
  issueNumber: number,
  head: string,
  sinks: JobViewSinks,
): Promise<JobView> {
  const data = await calls.graphql("graphql.jobView", JobViewDataSchema, JOB_VIEW_QUERY, {
    ...calls.repo,
    issue: issueNumber,
    head,
    config: `HEAD:${CONFIG_PATH}`,
  });
  const repository = data.repository;
  if (repository.defaultBranchRef !== null) sinks.defaultBranch(repository.defaultBranchRef.name);
  sinks.config(configFromObject(repository.config));
  const node = repository.issueOrPullRequest;
  if (node === null) {
    throw new GitHubForgeError(
      `cfa/github: issue #${issueNumber} does not exist in ${calls.repo.owner}/${calls.repo.repo}, or the token cannot see it`,
      { operation: "graphql.jobView", status: 404 },
    );
  }
  if (node.__typename === "PullRequest") {
    const issue: Issue = {
      number: issueNumber,
      title: "",
      body: "",
      author: { login: "ghost", type: "User" },
      labels: [],
      state: "closed",
      url: `${repoUrl}/pull/${issueNumber}`,
      isPullRequest: true,
    };
    return { issue, comments: [], pullRequest: null, reviews: [], labelEvents: [] };
  }
  const commentNodes = await withOlder(node.comments, async (before) => {
    const older = await calls.graphql(
      "graphql.olderComments",
      OlderCommentsSchema,
      OLDER_COMMENTS_QUERY,
      { ...calls.repo, issue: issueNumber, before },
    );
    return older.repository.issue?.comments;
  });
  const comments = commentNodes.flatMap((c) => (c === null ? [] : [toGraphqlComment(c)]));
  const issue = toGraphqlIssue(node);
  sinks.issue(issueNumber, fingerprintOf(issue, node.comments.totalCount));
  const prs = repository.pullRequests.nodes.filter((pr): pr is PullRequestNode => pr !== null);
  for (const pr of prs) sinks.pullRequest(pr.number, pr.id, pr.isDraft);
  // Newest first: an open one wins over any closed earlier attempt.
  const chosen = prs.find((pr) => pr.state === "OPEN") ?? prs[0];
  return {
    issue,
    comments,
    pullRequest: chosen === undefined ? null : toGraphqlPullRequest(chosen),
    reviews: chosen === undefined ? [] : await allReviews(calls, chosen),
    labelEvents: toLabelEvents(node),
    // The newest hundred of the pull request's own comments: `/cfa` there is a request made
    // since the job last read it (people/human-events.ts), never an old page's.
    ...(chosen?.comments === undefined
      ? {}
      : {
          pullComments: chosen.comments.nodes.flatMap((c) =>
            c === null ? [] : [toGraphqlComment(c)],
          ),
        }),
  };
}

async function allReviews(calls: GitHubCalls, pr: PullRequestNode): Promise<Review[]> {
  const nodes = await withOlder(pr.reviews, async (before) => {
    const older = await calls.graphql(
      "graphql.olderReviews",
      OlderReviewsSchema,
      OLDER_REVIEWS_QUERY,
      { id: pr.id, before },
    );
    return older.node?.reviews;
  });
  return nodes.flatMap((n) => {
    const review = n === null ? null : toGraphqlReview(n);
    return review === null ? [] : [review];
  });
}

interface Page<T> {
  nodes: readonly T[];
  pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
}

/**
 * The job view asks for the newest page of comments and of reviews; the older ones are
 * fetched page by page, `before` the oldest cursor seen, until GitHub says there are none
 * (or the object is gone). Oldest first.
 */
async function withOlder<T>(
  newest: Page<T>,
  olderThan: (before: string) => Promise<Page<T> | undefined>,
): Promise<T[]> {
  const nodes = [...newest.nodes];
  let page = newest.pageInfo;
  while (page.hasPreviousPage && page.startCursor !== null) {
    const older = await olderThan(page.startCursor);
    if (older === undefined) break;
    nodes.unshift(...older.nodes);
    page = older.pageInfo;
  }
  return nodes;
}
