// The forge a task's own run is given: every ref but the task's branch,
// the bus, the state, the journal's branch, comments, reactions, pull requests and checks are
// the lead's run's alone. A task run's session holds this forge, so nothing in it — the
// engine's own code on a path nobody meant a task run to take, an agent's tool reaching for
// a comment — can write any of them: the reads it needs pass, every write throws. The task
// branch is written by the run's TaskTurnWriter over git with a lease, not through the forge.

import type { Forge } from "../../ports/forge.js";

export class TaskRunWriteRefused extends Error {
  override readonly name = "TaskRunWriteRefused";
}

export function taskRunForge(inner: Forge, task: string): Forge {
  const refused =
    (what: string) =>
    (..._args: unknown[]): Promise<never> =>
      Promise.reject(
        new TaskRunWriteRefused(
          `cfa/engine: task ${task}'s own run may not ${what}: only the lead's run writes the job's branch, comments, pull request and checks`,
        ),
      );
  const forge: Forge = {
    botLogin: inner.botLogin,
    repoUrl: inner.repoUrl,
    getIssue: (n) => inner.getIssue(n),
    listComments: (n) => inner.listComments(n),
    readJob: (n, head) => inner.readJob(n, head),
    issueChanged: (n) => inner.issueChanged(n),
    permission: (login) => inner.permission(login),
    defaultBranch: () => inner.defaultBranch(),
    findPullRequest: (head) => inner.findPullRequest(head),
    listReviews: (n) => inner.listReviews(n),
    readConfig: () => inner.readConfig(),
    readDefaultBranchFile: (path) => inner.readDefaultBranchFile(path),
    createComment: refused("post a comment"),
    updateComment: refused("edit a comment"),
    react: refused("react to a comment"),
    pushBranch: refused("push a branch through the forge"),
    deleteBranch: refused("delete a branch"),
    readBranch: refused("fetch another branch"),
    createPullRequest: refused("open a pull request"),
    updatePullRequest: refused("edit the pull request"),
    markReadyForReview: refused("mark the pull request ready"),
    closePullRequest: refused("close the pull request"),
    requestReview: refused("request a review"),
    setCheck: refused("set a check run"),
  };
  return forge;
}
