// Workflow files. GitHub refuses a push that creates, changes or deletes a file
// under `.github/workflows/` unless the token may write workflows: "refusing to allow a GitHub
// App to create or update workflow … without `workflows` permission". The workflow's
// GITHUB_TOKEN has no such permission (its `permissions:` keys have no `workflows`:
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions),
// and a GitHub App needs the repository permission "Workflows" (read and write)
// (https://docs.github.com/en/rest/overview/permissions-required-for-github-apps: "Some
// endpoints that require write access to the repository Contents permission also require
// write access to the repository Workflows permission if the request will affect workflow
// files"). One such file in a turn would fail every push of the job after it.
//
// So, unless `.github/cfa.yml` says `pushWorkflows: true` (for an app that has that
// permission), a turn's changes there are put back before the turn is committed — the job
// branch and task branches never carry them, so no push is refused half-way — and the agent
// hears why in its mailbox, the person in the status comment. The forge checks each push too
// (adapters/github/push-branch.ts), in case anything else ever slips through.

import { JobRepo } from "./job-repo.js";

export const WORKFLOW_DIR = ".github/workflows";

/** True for `.github/workflows` and anything under it; case-folded, to be safe. */
export function isWorkflowPath(path: string): boolean {
  const parts = path.replace(/^\.\//, "").split("/");
  return parts[0]?.toLowerCase() === ".github" && parts[1]?.toLowerCase() === "workflows";
}

/** What the person is told (status comment), and what permission would allow it. */
export function heldBackNotice(paths: readonly string[]): string {
  const shown = paths.slice(0, 10).map((p) => `\`${p}\``);
  const more = paths.length > shown.length ? ` and ${paths.length - shown.length} more` : "";
  return `Changes to workflow files were held back: ${shown.join(", ")}${more}. GitHub lets only a token with the **Workflows** permission push them: the workflow's \`GITHUB_TOKEN\` never may, a GitHub App only with *Workflows: Read and write*. To let cfa-bot push them, run it as such an app and set \`pushWorkflows: true\` in \`.github/cfa.yml\`; or make the change yourself.`;
}

/** What the agent is told in its mailbox. */
export function heldBackMessage(paths: readonly string[]): string {
  return [
    `Your changes to ${paths.map((p) => `\`${p}\``).join(", ")} were not kept: they are back as they were at your last commit.`,
    `GitHub refuses any push that creates, changes or deletes a file under \`${WORKFLOW_DIR}/\` unless the token has the Workflows permission, and this job's does not.`,
    "Do not change workflow files. If the work needs such a change, say so (what and why) in your reply or summary, for a person to make.",
  ].join(" ");
}

/**
 * Puts back every change under `.github/workflows/` in the worktree at `root` (new files
 * removed, changed and deleted ones restored from HEAD) and returns their paths. Git only,
 * through the engine's hardened runner. With `repo` (the job worktree's own), its one look
 * at the tree serves this check and the commit after it (JobRepo.lookAtTree: one whole-tree
 * status per commit);
 * that look leaves out dependency folders, which no commit takes either (stage-tree.ts).
 */
export async function restoreWorkflowChanges(root: string, repo?: JobRepo): Promise<string[]> {
  const git = repo?.git ?? new JobRepo(root).git;
  const entries = repo !== undefined ? (await repo.lookAtTree())?.entries : undefined;
  const tracked: string[] = [];
  const untracked: string[] = [];
  for (const { code, path } of entries ?? (await ownStatus(git))) {
    if (!isWorkflowPath(path)) continue;
    (code === "??" ? untracked : tracked).push(path);
  }
  if (tracked.length + untracked.length > 0) repo?.dropLook();
  if (tracked.length > 0) {
    // Unstage and restore from the last commit: a modified or deleted file comes back as it was.
    await git.raw(["reset", "--quiet", "HEAD", "--", ...tracked]);
    await git.raw(["checkout", "HEAD", "--", ...tracked]);
  }
  if (untracked.length > 0) await git.raw(["clean", "--force", "--quiet", "--", ...untracked]);
  return [...tracked, ...untracked].sort();
}

async function ownStatus(git: JobRepo["git"]): Promise<{ code: string; path: string }[]> {
  const status = await git.raw([
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
  ]);
  return status
    .split("\0")
    .filter((entry) => entry.length >= 4)
    .map((entry) => ({ code: entry.slice(0, 2), path: entry.slice(3) }));
}
