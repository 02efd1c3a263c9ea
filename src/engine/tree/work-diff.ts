// What a job's work changed, as a reviewer of its pull request sees it: the diff from where
// the branch left the default branch to `to`, the engine's records (`.cfa/`) left out, cut
// to a size a prompt can carry. Read from commits only (never the worktree's files, which
// an agent may have planted), with the engine's hardened git and no diff driver or textconv
// an agent's `.gitattributes` could name (git/driver-overrides.ts).

import type { JobRepo } from "./job-repo.js";

export interface WorkDiff {
  /** `git diff --stat`'s lines. */
  stat: string;
  /** The patch, cut at `maxChars` (said so at the end). */
  patch: string;
}

export async function workDiff(
  repo: JobRepo,
  from: string,
  to: string,
  maxChars: number,
): Promise<WorkDiff> {
  const base = (await repo.git.run(["merge-base", from, to])).stdout.toString("utf8").trim();
  const range = [base || from, to, "--", ".", ":(exclude).cfa"];
  const stat = await repo.git.run([
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--stat=120",
    ...range,
  ]);
  const patch = await repo.git.run([
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    ...range,
  ]);
  const text = patch.stdout.toString("utf8");
  return {
    stat: stat.stdout.toString("utf8").trimEnd(),
    patch:
      text.length <= maxChars
        ? text
        : `${text.slice(0, maxChars)}\n[… the diff goes on for ${text.length - maxChars} more characters: read the files]`,
  };
}
