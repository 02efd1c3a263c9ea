// The boundary verification of a workspace (docs/protocol.md#workspaces): a real directory,
// directly under the real workspace area, a worktree of the expected repository at its top level,
// on the expected branch. Anything else is a WorkspaceBoundaryError.

import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { gitOutput } from "../../git/git-at.js";
import { gitClient } from "../../git/git-client.js";
import { commonDirOf } from "../../git/head-from-files.js";
import { registeredGitDir, restoreDotGit } from "../../git/worktree-git-dir.js";
import { WorkspaceBoundaryError } from "./workspace-boundary-error.js";

export interface RepoContext {
  /** The repository's common git directory, real path. */
  readonly commonDir: string;
  /** The repository's main work tree, real path. */
  readonly topLevel: string;
  /** The workspace area as configured (absolute). */
  readonly area: string;
  /** The area's real path, pinned when the adapter first used it. */
  readonly areaReal: string;
}

async function realOrUndefined(target: string): Promise<string | undefined> {
  return realpath(target).catch(() => undefined);
}

export async function verifyArea(context: RepoContext): Promise<void> {
  const fail = (reason: string): WorkspaceBoundaryError =>
    new WorkspaceBoundaryError(context.area, reason);
  const stats = await lstat(context.area).catch(() => undefined);
  if (stats === undefined) throw fail("the workspace area does not exist");
  if (stats.isSymbolicLink()) throw fail("the workspace area is a symbolic link");
  if (!stats.isDirectory()) throw fail("the workspace area is not a directory");
  if ((await realOrUndefined(context.area)) !== context.areaReal) {
    throw fail(`the workspace area no longer resolves to ${context.areaReal}`);
  }
}

/**
 * What `describe` would say of a registered worktree, from its admin dir's files, when they
 * confirm `branch`; null otherwise (git is asked). With GIT_DIR and GIT_WORK_TREE given,
 * `rev-parse --show-toplevel` prints the work tree given (rootReal) and `--git-common-dir`
 * the admin dir's `commondir` (https://git-scm.com/docs/gitrepository-layout: "commondir
 * … the common directory"), and `--symbolic-full-name HEAD` the ref its HEAD file names: the
 * files git reads itself. The admin dir lies in the repository's common dir, which no
 * agent's command writes (read-only in the sandbox). Anything but a HEAD naming `branch`
 * (detached, unborn under reftable's stub, another branch) is left to git, so a refusal
 * always carries git's reading.
 */
async function describeFromFiles(
  rootReal: string,
  gitDir: string,
  branch: string,
): Promise<{ commonDir: string | undefined; topLevel: string; head: string } | null> {
  const head = await readFile(path.join(gitDir, "HEAD"), "utf8").catch(() => null);
  if (head !== `ref: refs/heads/${branch}\n`) return null;
  // The reftable backend keeps a stub HEAD; its refs are not files (gitrepository-layout).
  const common = await commonDirOf(gitDir);
  if (
    await lstat(path.join(common, "reftable")).then(
      () => true,
      () => false,
    )
  )
    return null;
  return {
    commonDir: await realOrUndefined(common),
    topLevel: rootReal,
    head: `refs/heads/${branch}`,
  };
}

/** The common dir, top level and branch of the work tree at `rootReal`, as git reports them. */
async function describe(
  rootReal: string,
  gitDir: string | undefined,
): Promise<{
  commonDir: string | undefined;
  topLevel: string | undefined;
  head: string;
}> {
  // The git dir is passed, never discovered from the tree's `.git` (worktree-git-dir.ts).
  const git = gitClient(gitDir === undefined ? rootReal : { baseDir: rootReal, gitDir });
  const where = ["rev-parse", "--path-format=absolute", "--git-common-dir", "--show-toplevel"];
  // One git process for the three (each costs start-up time): `--symbolic-full-name HEAD` prints
  // the branch's full name, or `HEAD` when detached; an unborn HEAD fails it, and then the branch
  // is asked apart.
  const together = await gitOutput(git, [...where, "--symbolic-full-name", "HEAD"]).catch(
    () => null,
  );
  const [located, head] =
    together !== null
      ? [together, together.split("\n")[2] ?? ""]
      : await Promise.all([
          gitOutput(git, where),
          gitOutput(git, ["symbolic-ref", "--quiet", "HEAD"]).catch(() => ""),
        ]);
  const [commonDir = "", topLevel = ""] = located.split("\n");
  return {
    commonDir: await realOrUndefined(commonDir),
    topLevel: await realOrUndefined(topLevel),
    head: head.startsWith("refs/") ? head : "",
  };
}

/** A verified workspace: its real root and the git dir the repository registers for it. */
export interface VerifiedTree {
  root: string;
  /** The worktree's admin dir; absent for the repository's main work tree. */
  gitDir?: string;
}

/**
 * Verifies a workspace in the area; returns its real root and git dir. A `.git` file that no
 * longer points at the git dir the repository registers for this root (an agent's command
 * rewrote it) is put back, never followed, so the engine's git never runs on a
 * repository an agent chose.
 */
export async function verifyWorktree(
  context: RepoContext,
  root: string,
  branch: string,
  options: { onRepair?: (root: string) => void } = {},
): Promise<Required<VerifiedTree>> {
  const fail = (reason: string, cause?: unknown): WorkspaceBoundaryError =>
    new WorkspaceBoundaryError(root, reason, cause === undefined ? {} : { cause });
  await verifyArea(context);
  const stats = await lstat(root).catch(() => undefined);
  if (stats === undefined) throw fail("the worktree root does not exist");
  if (stats.isSymbolicLink()) throw fail("the worktree root is a symbolic link");
  if (!stats.isDirectory()) throw fail("the worktree root is not a directory");
  const rootReal = await realOrUndefined(root);
  if (rootReal === undefined || path.dirname(rootReal) !== context.areaReal) {
    throw fail(`the worktree root does not resolve to a directory directly in ${context.areaReal}`);
  }

  // The repository's own registration says which git dir this root has; the tree's `.git`
  // file is only a copy of that, and is restored when it says anything else.
  const gitDir = await registeredGitDir(context.commonDir, rootReal);
  if (gitDir === undefined) {
    throw fail("the repository registers no worktree at this path");
  }
  if (await restoreDotGit(rootReal, gitDir)) options.onRepair?.(rootReal);

  let described: Awaited<ReturnType<typeof describe>>;
  try {
    described =
      (await describeFromFiles(rootReal, gitDir, branch)) ?? (await describe(rootReal, gitDir));
  } catch (error) {
    throw fail("git cannot read it as a work tree", error);
  }
  if (described.commonDir !== context.commonDir) {
    throw fail(`it is not a worktree of the repository at ${context.topLevel}`);
  }
  if (described.topLevel !== rootReal) throw fail("it is not the top level of its worktree");
  if (described.head !== `refs/heads/${branch}`) {
    throw fail(`it has ${described.head || "a detached HEAD"} checked out, not ${branch}`);
  }
  return { root: rootReal, gitDir };
}

/** Verifies a merge target: the repository's main work tree or a workspace in the area. */
export async function verifyMergeTarget(
  context: RepoContext,
  root: string,
  branch: string,
): Promise<VerifiedTree> {
  const rootReal = await realOrUndefined(root);
  if (rootReal !== undefined && rootReal === context.topLevel) {
    const described = await describe(rootReal, undefined);
    if (described.head !== `refs/heads/${branch}`) {
      throw new WorkspaceBoundaryError(
        root,
        `it has ${described.head || "a detached HEAD"} checked out, not ${branch}`,
      );
    }
    return { root: rootReal };
  }
  return verifyWorktree(context, root, branch);
}
