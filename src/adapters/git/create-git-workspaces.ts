// The Workspaces port over git worktrees (docs/protocol.md#workspaces; README, "How a job works":
// task workspace): each instance gets a worktree on its own branch in the job's workspace area,
// verified at creation; close merges it into the parent's tree, drop discards it.

import { lstat, mkdir, realpath, rm } from "node:fs/promises";
import path from "node:path";
import { noopLogger, type Logger } from "../../ports/logger.js";
import type {
  CreateWorkspace,
  MergeResult,
  Workspace,
  Workspaces,
} from "../../ports/workspaces.js";
import { commitPending } from "./commit-pending.js";
import { identityConfig } from "./committer-identity.js";
import { copyFiles } from "./copy-files.js";
import { gitAt, gitOutput } from "../../git/git-at.js";
import { commitDateEnv, gitClient } from "../../git/git-client.js";
import { mergeBranch } from "./merge-branch.js";
import { branchExists, deleteBranch, removeWorktree } from "./remove-worktree.js";
import { createSerialQueue } from "../../git/serial-queue.js";
import { validateBranch, validateWorkspaceName } from "./validate-names.js";
import {
  verifyArea,
  verifyMergeTarget,
  verifyWorktree,
  type RepoContext,
  type VerifiedTree,
} from "./verify-worktree.js";
import { WorkspaceBoundaryError } from "./workspace-boundary-error.js";
import { WorkspaceError, type WorkspaceOperation } from "./workspace-error.js";

export interface GitWorkspacesOptions {
  /** The job's repository: a normal clone or the local repository. */
  repoDir: string;
  /** The job's workspace area, outside the repository's work tree (created if missing). */
  area: string;
  logger?: Logger;
  /** The clock commit dates come from; the system clock when absent. */
  now?: () => Date;
  /** For tests: runs right after `git worktree add`, before verification. */
  seam?: { afterAdd?: (root: string) => void | Promise<void> };
  /**
   * Folders a close never commits from the child's pending work. Default `.cfa`: the
   * engine's records (README: `.cfa/jobs/<N>/` on the job branch) are committed by the
   * engine alone, from its own bytes, so no agent can forge them; a task's copy of them, or a
   * change an agent made there, must never reach the parent through a merge.
   */
  keepOut?: readonly string[];
  /**
   * The largest file a commit of this adapter takes (a child's pending work, copied files);
   * GitHub's 100 MiB when absent (src/git/file-size-limit.ts).
   */
  maxFileBytes?: number;
}

/** The area's folder of private homes: a name no workspace can have. */
const HOMES = ".homes";

export function createGitWorkspaces(options: GitWorkspacesOptions): Workspaces {
  const logger = options.logger ?? noopLogger;
  const repo = gitAt(options.repoDir);
  const queue = createSerialQueue();
  const sizeLimit =
    options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes };
  // Commits this adapter makes (merges, a child's pending work, copied files) take their
  // dates from the job's clock when one is given, so a replayed job repeats them exactly.
  // Always with the git dir the repository registers (never the tree's `.git` file).
  const committer = async (tree: VerifiedTree) => {
    const at = { baseDir: tree.root, ...(tree.gitDir ? { gitDir: tree.gitDir } : {}) };
    return gitClient({
      ...at,
      config: await identityConfig(gitClient(at), tree.gitDir ?? tree.root),
      ...(options.now ? { env: () => commitDateEnv(options.now!()) } : {}),
    });
  };
  const onRepair = (root: string) =>
    logger.warn("cfa/workspaces: a worktree's .git file was changed; restored it", { root });
  let pinned: Promise<RepoContext> | undefined;

  // The repository and the area are resolved once, so a later swap of either is detected
  // by verification instead of silently followed.
  const context = (): Promise<RepoContext> => {
    pinned ??= loadContext(options).catch((error: unknown) => {
      pinned = undefined;
      throw error;
    });
    return pinned;
  };

  const wrapGit = (operation: WorkspaceOperation, what: string, error: unknown): Error =>
    error instanceof WorkspaceError || error instanceof WorkspaceBoundaryError
      ? error
      : new WorkspaceError(operation, `${what}: ${String(error)}`, { cause: error });

  /** The child's root as the adapter would have made it; refuses anything else. */
  const rootInArea = (ctx: RepoContext, operation: WorkspaceOperation, root: string): string => {
    const name = path.basename(root);
    validateWorkspaceName(operation, name);
    const parent = path.dirname(path.resolve(root));
    if (parent !== ctx.areaReal && parent !== ctx.area) {
      throw new WorkspaceBoundaryError(root, `it is not a workspace in the area ${ctx.areaReal}`);
    }
    return path.join(ctx.areaReal, name);
  };

  /**
   * A workspace's private folder (Workspace.home): in the area, beside the worktrees, under a
   * name no workspace can take (names start with a letter or digit), never in a worktree.
   */
  const homeOf = (ctx: RepoContext, name: string): string => path.join(ctx.areaReal, HOMES, name);
  const makeHome = async (ctx: RepoContext, name: string): Promise<string> => {
    const home = homeOf(ctx, name);
    await mkdir(home, { recursive: true, mode: 0o700 });
    return home;
  };
  const removeHome = (ctx: RepoContext, root: string): Promise<void> =>
    rm(homeOf(ctx, path.basename(root)), { recursive: true, force: true });

  const create = async (request: CreateWorkspace): Promise<Workspace> => {
    validateWorkspaceName("create", request.name);
    await validateBranch(repo, "create", request.branch);
    const ctx = await context();
    await verifyArea(ctx);
    const root = path.join(ctx.areaReal, request.name);
    if (
      await lstat(root).then(
        () => true,
        () => false,
      )
    ) {
      throw new WorkspaceError(
        "create",
        `${root} already exists; open() re-attaches an existing workspace`,
      );
    }
    if (await branchExists(repo, request.branch, ctx.commonDir)) {
      throw new WorkspaceError(
        "create",
        `branch ${request.branch} already exists; open() re-attaches, drop() discards it`,
      );
    }
    if (request.from.startsWith("-")) {
      throw new WorkspaceError("create", `invalid start point ${JSON.stringify(request.from)}`);
    }
    const start = await gitOutput(repo, [
      "rev-parse",
      "--verify",
      "--end-of-options",
      `${request.from}^{commit}`,
    ]).catch((error: unknown) => {
      throw wrapGit("create", `cannot resolve start point ${request.from}`, error);
    });

    try {
      await gitOutput(repo, ["worktree", "add", "--quiet", "-b", request.branch, root, start]);
    } catch (error) {
      throw wrapGit("create", `git worktree add failed for ${root}`, error);
    }
    try {
      await options.seam?.afterAdd?.(root);
      const tree = await verifyWorktree(ctx, root, request.branch, { onRepair });
      if (request.copy && request.copy.files.length > 0) {
        const copied = await copyFiles(request.copy.from, tree.root, request.copy.files);
        await commitCopied(tree, copied, request.copy.from.branch);
      }
      const home = await makeHome(ctx, request.name);
      logger.info("cfa/workspaces: created", { root: tree.root, branch: request.branch });
      return { root: tree.root, branch: request.branch, gitDir: tree.gitDir, home };
    } catch (error) {
      // A boundary not verified means the instance is not sparked, so nothing of it may remain.
      await removeWorktree(repo, root, { commonDir: ctx.commonDir, logger });
      await deleteBranch(repo, request.branch).catch((cleanup: unknown) => {
        logger.warn("cfa/workspaces: could not delete branch after failed create", {
          branch: request.branch,
          error: String(cleanup),
        });
      });
      throw wrapGit("create", `creating ${root} failed`, error);
    }
  };

  const open = async (name: string, branch: string): Promise<Workspace> => {
    validateWorkspaceName("open", name);
    await validateBranch(repo, "open", branch);
    const ctx = await context();
    await verifyArea(ctx);
    const root = path.join(ctx.areaReal, name);
    const present = await lstat(root).then(
      () => true,
      () => false,
    );
    if (!present) {
      // A fresh runner has the branch (fetched) but not the directory: check it out again.
      if (!(await branchExists(repo, branch, ctx.commonDir))) {
        throw new WorkspaceError("open", `no workspace at ${root} and no branch ${branch}`);
      }
      await gitOutput(repo, ["worktree", "prune"]);
      try {
        await gitOutput(repo, ["worktree", "add", "--quiet", root, branch]);
        await options.seam?.afterAdd?.(root);
        const tree = await verifyWorktree(ctx, root, branch, { onRepair });
        const home = await makeHome(ctx, name);
        logger.info("cfa/workspaces: re-created from its branch", { root: tree.root, branch });
        return { root: tree.root, branch, gitDir: tree.gitDir, home };
      } catch (error) {
        await removeWorktree(repo, root, { commonDir: ctx.commonDir, logger });
        throw wrapGit("open", `re-creating ${root} from ${branch} failed`, error);
      }
    }
    // An existing workspace that fails verification is refused but never removed: it may
    // hold the only copy of the instance's work, which resumption needs.
    const tree = await verifyWorktree(ctx, root, branch, { onRepair });
    const home = await makeHome(ctx, name);
    logger.info("cfa/workspaces: re-attached", { root: tree.root, branch });
    return { root: tree.root, branch, gitDir: tree.gitDir, home };
  };

  const close = async (
    child: Workspace,
    into: Workspace,
    closeOptions: { message: string; onConflict: "leave" | "abort" },
  ): Promise<MergeResult> => {
    const ctx = await context();
    await validateBranch(repo, "close", child.branch);
    await validateBranch(repo, "close", into.branch);
    const childTree = await verifyWorktree(
      ctx,
      rootInArea(ctx, "close", child.root),
      child.branch,
      { onRepair },
    );
    const intoTree = await verifyMergeTarget(ctx, into.root, into.branch);
    const childRoot = childTree.root;
    const intoRoot = intoTree.root;
    if (childRoot === intoRoot) {
      throw new WorkspaceError("close", `cannot merge ${childRoot} into itself`);
    }
    try {
      const childGit = await committer(childTree);
      // Nothing the child did is lost: uncommitted work becomes a commit on its branch.
      await commitPending(childGit, `cfa: uncommitted work of ${child.branch}`, undefined, {
        exclude: options.keepOut ?? [".cfa"],
        ...sizeLimit,
      });
      const intoGit = await committer(intoTree);
      const result = await mergeBranch(intoGit, child.branch, {
        message: closeOptions.message,
        onConflict: closeOptions.onConflict,
        intoRoot,
        commonDir: ctx.commonDir,
        ...(intoTree.gitDir === undefined ? {} : { gitDir: intoTree.gitDir }),
      });
      if (result.kind === "conflict") {
        // The child stays: the parent resolves (or aborted) and closes or drops it later.
        logger.info("cfa/workspaces: merge conflict", { child: childRoot, files: result.files });
        return result;
      }
      await removeWorktree(repo, childRoot, { commonDir: ctx.commonDir, logger });
      await deleteBranch(repo, child.branch, ctx.commonDir);
      await removeHome(ctx, childRoot);
      logger.info("cfa/workspaces: closed", { child: childRoot, into: intoRoot, ...result });
      return result;
    } catch (error) {
      throw wrapGit("close", `closing ${childRoot} into ${intoRoot} failed`, error);
    }
  };

  const drop = async (child: Workspace): Promise<void> => {
    const ctx = await context();
    await validateBranch(repo, "drop", child.branch);
    const root = rootInArea(ctx, "drop", child.root);
    try {
      await removeWorktree(repo, root, { commonDir: ctx.commonDir, logger });
      await deleteBranch(repo, child.branch, ctx.commonDir);
      await removeHome(ctx, root);
    } catch (error) {
      throw wrapGit("drop", `dropping ${root} failed`, error);
    }
    logger.info("cfa/workspaces: dropped", { root, branch: child.branch });
  };

  async function commitCopied(
    tree: VerifiedTree,
    copied: string[],
    fromBranch: string,
  ): Promise<void> {
    const git = await committer(tree);
    // An ignored file is copied but not committed: the parent did not commit it either.
    const ignored = new Set(
      (await gitOutput(git, ["check-ignore", "-z", "--", ...copied]).catch(() => "")).split("\0"),
    );
    const tracked = copied.filter((file) => !ignored.has(file));
    await commitPending(git, `cfa: files copied from ${fromBranch}`, tracked, sizeLimit);
  }

  return {
    create: (request) => queue.run(() => create(request)),
    open: (name, branch) => queue.run(() => open(name, branch)),
    close: (child, into, closeOptions) => queue.run(() => close(child, into, closeOptions)),
    drop: (child) => queue.run(() => drop(child)),
  };
}

async function loadContext(options: GitWorkspacesOptions): Promise<RepoContext> {
  const repo = gitAt(options.repoDir);
  let commonDir: string;
  let topLevel: string;
  try {
    // One git process for both (each costs start-up time): each answer on its own line, in order.
    const [common = "", top = ""] = (
      await gitOutput(repo, [
        "rev-parse",
        "--path-format=absolute",
        "--git-common-dir",
        "--show-toplevel",
      ])
    ).split("\n");
    commonDir = await realpath(common);
    topLevel = await realpath(top);
  } catch (error) {
    throw new WorkspaceError("create", `${options.repoDir} is not a git work tree`, {
      cause: error,
    });
  }
  const area = path.resolve(options.area);
  const existing = await lstat(area).catch(() => undefined);
  if (existing === undefined) await mkdir(area, { recursive: true });
  else if (existing.isSymbolicLink()) {
    throw new WorkspaceBoundaryError(area, "the workspace area is a symbolic link");
  }
  const areaReal = await realpath(area);
  // Worktrees inside the parent's tree would let the parent's agent reach into its
  // children's workspaces, and instances must not see each other's (docs/protocol.md#workspaces).
  if (areaReal === topLevel || areaReal.startsWith(topLevel + path.sep)) {
    throw new WorkspaceBoundaryError(
      area,
      `the workspace area is inside the repository's work tree ${topLevel}; put it outside`,
    );
  }
  if (topLevel.startsWith(areaReal + path.sep)) {
    throw new WorkspaceBoundaryError(area, "the workspace area contains the repository");
  }
  return { commonDir, topLevel, area, areaReal };
}
