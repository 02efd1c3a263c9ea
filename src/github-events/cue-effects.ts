// The GitHub calls the app makes, as a port: the Probot handler runs them over the
// installation's Octokit, the worker's Actions-only mode over the workflow's token.

import type { Actor } from "../ports/forge.js";

export interface PostedComment {
  author: Actor;
  body: string;
}

export interface CueEffects {
  /** 👀 on an issue or an issue comment. */
  react(target: { comment: number } | { issue: number }): Promise<void>;
  /** workflow_dispatch of `workflow` on `ref` with inputs `{ job: "<N>" }`. */
  dispatch(workflow: string, ref: string, job: number): Promise<void>;
  /** Ids of the job's worker runs that are in progress. */
  activeRuns(workflow: string, job: number): Promise<number[]>;
  /** Cancels a run; a run that has finished meanwhile is not an error. */
  cancelRun(id: number): Promise<void>;
  listComments(issue: number): Promise<PostedComment[]>;
  /**
   * A pull request's head branch and the repository it comes from, or null when there is no
   * such pull request: a comment on a pull request names only the pull request's number.
   */
  pullHead(number: number): Promise<{ ref: string; repo: string | null } | null>;
  createComment(issue: number, body: string): Promise<void>;
}
