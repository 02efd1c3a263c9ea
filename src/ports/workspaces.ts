// The Workspaces port (docs/protocol.md#workspaces): every instance works in a git worktree on its
// own branch, under the job's workspace area, behind a boundary verified at creation.

export interface Workspace {
  /** Absolute, symlink-free path of the worktree root. */
  readonly root: string;
  /** The branch checked out in it, e.g. `cfa/12` or `cfa/12-t3`. */
  readonly branch: string;
  /**
   * Its git dir as the repository registers it (a linked worktree's admin dir). The engine
   * runs git there with it, never with the one the tree's own `.git` file names, which an
   * agent's command can rewrite. Absent when the adapter does not know it.
   */
  readonly gitDir?: string;
  /**
   * The workspace's private folder, outside the worktree and every other workspace's: its
   * commands' HOME (tools' caches, logs, histories and configuration; a shell tool's session
   * state), never committed, removed with the workspace. Absent when the adapter keeps none:
   * each command then gets a fresh empty HOME.
   */
  readonly home?: string;
}

export interface CreateWorkspace {
  /** Directory name under the workspace area (safe characters only). */
  name: string;
  branch: string;
  /** Commit (or branch) the new branch starts from. */
  from: string;
  /** Files copied by name from the parent's workspace at spark. */
  copy?: { from: Workspace; files: string[] };
}

export type MergeResult =
  | { kind: "merged"; commit: string }
  | { kind: "up-to-date"; commit: string }
  /** The merge is left in progress in `into` for the parent to resolve, or aborted. */
  | { kind: "conflict"; files: string[]; aborted: boolean };

/** What a job asks of its workspaces when it opens them. */
export interface WorkspaceOptions {
  /**
   * The largest file the adapter's own commits take (`limits.fileMiB`; GitHub refuses a push
   * holding a larger one): a larger one stays in the tree, untracked. The adapter's default is
   * GitHub's 100 MiB.
   */
  maxFileBytes?: number;
}

export interface Workspaces {
  /** Creates the worktree and verifies its boundary; throws WorkspaceBoundaryError if not. */
  create(request: CreateWorkspace): Promise<Workspace>;
  /** Re-attaches an existing worktree (after a crash), verifying it again. */
  open(name: string, branch: string): Promise<Workspace>;
  /** Merges `child`'s branch into `into`'s with a merge commit, then removes `child`. */
  close(
    child: Workspace,
    into: Workspace,
    options: { message: string; onConflict: "leave" | "abort" },
  ): Promise<MergeResult>;
  /** Removes the worktree and deletes its branch without merging (cascaded withdraw). */
  drop(child: Workspace): Promise<void>;
}
