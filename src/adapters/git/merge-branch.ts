// Closing a child merges its branch into the parent's tree, and its conflicts are the parent
// agent's to resolve (docs/protocol.md#workspaces), so a conflict is returned as data,
// left in progress or aborted as the caller chose, and never resolved here.

import { lstat } from "node:fs/promises";
import path from "node:path";
import { GitCommandError, type GitClient } from "../../git/git-client.js";
import { headFromFiles, looseBranchId } from "../../git/head-from-files.js";
import type { MergeResult } from "../../ports/workspaces.js";
import { gitOutput } from "../../git/git-at.js";
import { WorkspaceError } from "./workspace-error.js";

export type OnConflict = "leave" | "abort";

/** `into` runs in the parent's work tree, with a committer identity configured. */
export async function mergeBranch(
  into: GitClient,
  branch: string,
  options: {
    message: string;
    onConflict: OnConflict;
    intoRoot: string;
    /**
     * The repository's common dir and the target's git dir, when known: the branch's tip,
     * a merge in progress and the new HEAD are then read from their files (head-from-files.ts,
     * no git process), git asked only where a file cannot say.
     */
    commonDir?: string;
    gitDir?: string;
  },
): Promise<MergeResult> {
  // MERGE_HEAD is a file of the target's git dir while a merge is in progress
  // (https://git-scm.com/docs/git-merge: "the MERGE_HEAD ref is set to point to the other
  // branch head"); one present there, valid or not, is refused.
  const inProgress =
    options.gitDir !== undefined
      ? (await lstat(path.join(options.gitDir, "MERGE_HEAD")).catch(() => null)) !== null
      : (await gitOutput(into, ["rev-parse", "--verify", "--quiet", "MERGE_HEAD"])) !== "";
  if (inProgress) {
    throw new WorkspaceError(
      "close",
      `a merge is already in progress in ${options.intoRoot}; resolve and commit it first`,
    );
  }
  const tip =
    (options.commonDir === undefined
      ? null
      : await looseBranchId(options.commonDir, `refs/heads/${branch}`)) ??
    (await gitOutput(into, ["rev-parse", "--verify", `refs/heads/${branch}`]));
  const ahead = await gitOutput(into, ["rev-list", "--count", `HEAD..${tip}`]);
  if (ahead === "0") {
    return { kind: "up-to-date", commit: await gitOutput(into, ["rev-parse", "HEAD"]) };
  }

  let failure: unknown = undefined;
  // Its exit code too: `raw` throws only when git also wrote to stderr, and a conflicting
  // merge may report on stdout alone.
  let exitCode: number | null = null;
  const mergeArgs = [
    "merge",
    "--no-ff",
    "--no-edit",
    "--no-verify",
    "--no-gpg-sign",
    "--message",
    options.message,
    tip,
  ];
  try {
    const result = await into.run(mergeArgs);
    exitCode = result.code;
    if (result.code !== 0 && result.stderr.length > 0) {
      failure = new GitCommandError(
        result.stdout.toString("utf8") + result.stderr,
        mergeArgs,
        result.code,
      );
    }
  } catch (error) {
    failure = error;
  }

  // A merge git reports done (exit 0) committed an index with no unmerged entry: only
  // another outcome is asked which files conflict (one git process a merge fewer).
  const unmerged =
    exitCode === 0
      ? ""
      : await gitOutput(into, [
          "diff",
          "--no-ext-diff",
          "--no-textconv",
          "--name-only",
          "--diff-filter=U",
          "-z",
        ]);
  const files = [...new Set(unmerged.split("\0").filter((file) => file !== ""))].sort();
  if (files.length > 0) {
    switch (options.onConflict) {
      case "leave":
        return { kind: "conflict", files, aborted: false };
      case "abort":
        await gitOutput(into, ["merge", "--abort"]);
        return { kind: "conflict", files, aborted: true };
      default: {
        const never: never = options.onConflict;
        throw new WorkspaceError("close", `unknown onConflict ${String(never)}`);
      }
    }
  }
  if (failure !== undefined) {
    throw new WorkspaceError(
      "close",
      `merging ${branch} into ${options.intoRoot} failed: ${String(failure)}`,
      { cause: failure },
    );
  }
  const secondParent = await gitOutput(into, ["rev-parse", "--verify", "--quiet", "HEAD^2"]);
  if (secondParent !== tip) {
    throw new WorkspaceError(
      "close",
      `merging ${branch} into ${options.intoRoot} did not produce a merge commit`,
    );
  }
  const head = options.gitDir === undefined ? null : await headFromFiles(options.gitDir);
  return { kind: "merged", commit: head ?? (await gitOutput(into, ["rev-parse", "HEAD"])) };
}
