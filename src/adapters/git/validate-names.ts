// Workspace names become directories and branch names become refs: both are checked
// before git sees them, so a name can never be read as an option or escape the area.

import type { GitClient } from "../../git/git-client.js";
import { gitOutput } from "../../git/git-at.js";
import { holdsSecret } from "../../secrets/index.js";
import { WorkspaceError, type WorkspaceOperation } from "./workspace-error.js";

// One component, starting with a letter or digit (never `.` or `-`), no `..`, and not
// `*.lock`, which git reserves for its own lock files next to the worktree's admin dir.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/u;

export function validateWorkspaceName(operation: WorkspaceOperation, name: string): void {
  if (!NAME.test(name) || name.includes("..") || name.endsWith(".lock")) {
    throw new WorkspaceError(
      operation,
      `invalid workspace name ${JSON.stringify(name)}: use 1-100 letters, digits, ".", "_" or "-", ` +
        'starting with a letter or digit, without ".." and not ending in ".lock"',
    );
  }
}

export async function validateBranch(
  git: GitClient,
  operation: WorkspaceOperation,
  branch: string,
): Promise<void> {
  const invalid = (why: string, cause?: unknown): WorkspaceError =>
    new WorkspaceError(
      operation,
      `invalid branch name ${JSON.stringify(branch)}: ${why}`,
      cause === undefined ? {} : { cause },
    );
  // A branch is pushed: never one whose name holds a secret, and the error
  // does not repeat it.
  if (holdsSecret(branch)) {
    throw new WorkspaceError(operation, "invalid branch name: it holds a secret");
  }
  // `-x` would be read as an option, and `@{-1}` is expanded by --branch: neither is a name.
  if (branch === "" || branch.startsWith("-") || branch.includes("@{")) {
    throw invalid('it is empty, starts with "-" or contains "@{"');
  }
  // git's answer depends on the name alone: a name it accepted once is not asked again
  // (every workspace operation validates its branches, and each git process costs time).
  if (ACCEPTED.has(branch)) return;
  let checked: string;
  try {
    checked = await gitOutput(git, ["check-ref-format", "--branch", branch]);
  } catch (error) {
    throw invalid("git check-ref-format refuses it", error);
  }
  if (checked !== branch) throw invalid("git check-ref-format refuses it");
  if (ACCEPTED.size < 10_000) ACCEPTED.add(branch);
}

/** Branch names git check-ref-format accepted in this process. */
const ACCEPTED = new Set<string>();
