// The boundary verification of a workspace (seed 000 §10): a real directory, directly under
// the real workspace area, a worktree of the expected repository at its top level, on the
// expected branch. Anything else is a WorkspaceBoundaryError.

import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { gitAt, gitOutput } from "./git-at.js";
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

/** The common dir, top level and branch of the work tree at `rootReal`, as git reports them. */
async function describe(rootReal: string): Promise<{
  commonDir: string | undefined;
  topLevel: string | undefined;
  head: string;
}> {
  const git = gitAt(rootReal);
  const [commonDir, topLevel, head] = await Promise.all([
    gitOutput(git, ["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    gitOutput(git, ["rev-parse", "--show-toplevel"]),
    gitOutput(git, ["symbolic-ref", "--quiet", "HEAD"]).catch(() => ""),
  ]);
  return {
    commonDir: await realOrUndefined(commonDir),
    topLevel: await realOrUndefined(topLevel),
    head,
  };
}

/** Verifies a workspace in the area; returns its real root. */
export async function verifyWorktree(
  context: RepoContext,
  root: string,
  branch: string,
): Promise<string> {
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

  // Read the `.git` file ourselves before running git there: a planted `.git` could point
  // git at another repository's config.
  const dotGit = path.join(rootReal, ".git");
  const dotGitStats = await lstat(dotGit).catch(() => undefined);
  if (dotGitStats === undefined || !dotGitStats.isFile()) {
    throw fail("its .git is not a worktree's .git file");
  }
  const pointer = /^gitdir: (.+)\n?$/u.exec(await readFile(dotGit, "utf8"));
  const adminDir = pointer?.[1] ? await realOrUndefined(path.resolve(rootReal, pointer[1])) : "";
  if (!adminDir?.startsWith(path.join(context.commonDir, "worktrees") + path.sep)) {
    throw fail("its .git file does not point into this repository's worktrees");
  }

  let described: Awaited<ReturnType<typeof describe>>;
  try {
    described = await describe(rootReal);
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
  return rootReal;
}

/** Verifies a merge target: the repository's main work tree or a workspace in the area. */
export async function verifyMergeTarget(
  context: RepoContext,
  root: string,
  branch: string,
): Promise<string> {
  const rootReal = await realOrUndefined(root);
  if (rootReal !== undefined && rootReal === context.topLevel) {
    const described = await describe(rootReal);
    if (described.head !== `refs/heads/${branch}`) {
      throw new WorkspaceBoundaryError(
        root,
        `it has ${described.head || "a detached HEAD"} checked out, not ${branch}`,
      );
    }
    return rootReal;
  }
  return verifyWorktree(context, root, branch);
}
