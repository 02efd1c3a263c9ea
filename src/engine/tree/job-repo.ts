// Git on a job's (or a task's) worktree: commits of records and artifacts, one per turn,
// serialised; a reset to the last commit after a crash. Every command runs through the one
// hardened git runner with the worktree's git dir passed explicitly (git-client.ts), and the
// tree is treated as hostile, since agents' commands wrote it: nested repositories (their
// config could run code as the engine; an empty one fails every commit) are removed before
// `git add`, gitlinks and paths git refuses are left out of the commit, and `.cfa/` is staged
// from the engine's own bytes — never through `.gitattributes` filters or `.gitignore` rules
// an agent wrote, and never with a record the engine did not write.

import { lstatSync } from "node:fs";
import { join } from "node:path";
import { commitDateEnv, gitClient, type GitClient } from "../../git/git-client.js";
import { redact } from "../../secrets/index.js";
import { sweepTree } from "../../git/nested-repos.js";
import { shortPath } from "../../agents/boundary/tree-limits.js";
import { settleIndex, stageTree, type StageResult } from "../../git/stage-tree.js";
import { treeStatus, type TreeStatus } from "../../git/tree-status.js";
import { commonDirOf, headFromFiles, looseBranchId } from "../../git/head-from-files.js";
import { GITHUB_FILE_LIMIT_BYTES } from "../../git/file-size-limit.js";
import { oversizedFiles, type OversizedFile } from "../../git/oversized-files.js";
import { dependencyCleanExcludes } from "../../git/dependency-folders.js";
import type { Logger } from "../../ports/logger.js";
import { createSerialQueue } from "../../git/serial-queue.js";
import { outboundText } from "../../comments/outbound-text.js";
import { cleanLook } from "./clean-look.js";
import { mergeForeign } from "./merge-foreign.js";
import { RecordStager } from "./record-stager.js";
import { reflogParent } from "./reflog-parent.js";
import {
  isUnderRecords,
  RECORDS_DIR,
  registerRecords,
  type RecordLedger,
} from "./record-ledger.js";

export const BOT_IDENTITY = {
  name: "cfa-bot",
  email: "cfa-bot@users.noreply.github.com",
};

export interface JobRepoOptions {
  /** Where a put-back record or a left-out path is reported. */
  logger?: Logger;
  /**
   * The largest file a commit takes (`limits.fileMiB`); never more than GitHub's 100 MiB,
   * the default, as GitHub refuses a push holding a larger file. A larger one is left out of
   * the commit, untracked.
   */
  maxFileBytes?: number;
}

export class JobRepo {
  readonly git: GitClient;
  readonly records: RecordLedger;
  private readonly stager: RecordStager;
  private readonly lock = createSerialQueue();
  private readonly logger: Logger | undefined;
  /** The largest file a commit takes (JobRepoOptions.maxFileBytes). */
  readonly maxFileBytes: number;
  /** Whether the index holds HEAD plus records alone: set by a finished commit or reset. */
  private indexSettled = false;
  /** The worktree's admin dir when known without asking git (its reflog is read there). */
  private readonly adminDir: string | null;
  /** The parent of each commit this repo made, as git's reflog recorded it (parentOf). */
  private readonly parents = new Map<string, string>();
  /**
   * The tree as `lookAtTree` saw it, for the very next commit alone: any call that commits,
   * resets or moves this repo drops it first, so a commit never reads a look older than the
   * last change the repo itself made.
   */
  private look: TreeStatus | null = null;

  constructor(
    readonly root: string,
    /** The job's clock: commit dates come from it, so a replay makes the same commits. */
    now?: () => Date,
    /**
     * The worktree's git dir as the repository registers it (Workspace.gitDir). Without it
     * the tree's `.git` file is followed only once the repository confirms where it points.
     */
    gitDir?: string,
    options: JobRepoOptions = {},
  ) {
    const at = { baseDir: root, gitDir: gitDir ?? ownGitDir(root) };
    this.adminDir = at.gitDir === "verified" ? null : at.gitDir;
    // The bot commits as itself whatever the machine's git config says.
    this.git = gitClient({
      ...at,
      config: [`user.name=${BOT_IDENTITY.name}`, `user.email=${BOT_IDENTITY.email}`],
      ...(now ? { env: () => commitDateEnv(now()) } : {}),
    });
    this.records = registerRecords(root, gitClient(at));
    this.stager = new RecordStager(root, this.git, this.records, (what, path) =>
      this.warn(what, path),
    );
    this.logger = options.logger;
    this.maxFileBytes = Math.min(
      options.maxFileBytes ?? GITHUB_FILE_LIMIT_BYTES,
      GITHUB_FILE_LIMIT_BYTES,
    );
  }

  /** The commit HEAD is at: from the git dir's files when they say (head-from-files.ts). */
  async head(): Promise<string> {
    const known = this.adminDir === null ? null : await headFromFiles(this.adminDir);
    return known ?? (await this.git.raw(["rev-parse", "HEAD"])).trim();
  }

  /**
   * Commits `paths` (or everything when omitted) with `message`; returns the new commit, or
   * null when there was nothing to commit. Serialised with every other writer. A path under
   * `.cfa/` names records (a folder: all of them below it); `.cfa/outcome.json` is never
   * committed (docs/protocol.md#skill-contract: consumed, not kept).
   */
  commit(
    message: string,
    paths?: string[],
    /** `artifacts: false`: the phase artifacts stay as last committed (a lead is writing them). */
    options: { artifacts?: boolean } = {},
  ): Promise<string | null> {
    return this.lock.run(async () => {
      const settled = this.indexSettled;
      this.indexSettled = false;
      const look = this.look;
      this.look = null;
      const recordScopes =
        paths === undefined ? [RECORDS_DIR] : paths.filter((p) => isUnderRecords(trim(p)));
      const others = paths?.filter((p) => !isUnderRecords(trim(p)));
      const recordsStaged = await this.stager.stage(
        recordScopes.map(trim),
        options.artifacts !== false,
      );
      // A file over the size limit stays out, untracked: a push holding it would be refused.
      const staged =
        others === undefined
          ? await this.stageWholeTree(settled, look, recordsStaged)
          : others.length > 0
            ? await this.stagePaths(others)
            : settled
              ? // The index held HEAD and the ledger knows each record's indexed id: what
                // was just staged is exactly what differs (no diff-index needed).
                { refused: [], gitlinks: [], tooLarge: [], staged: recordsStaged }
              : { refused: [], tooLarge: [], ...(await settleIndex(this.git)) };
      for (const file of staged.refused) this.warn("left out of the commit: git refuses it", file);
      for (const file of staged.gitlinks) this.warn("left out of the commit: a gitlink", file);
      for (const file of staged.tooLarge) {
        this.warn(
          `left out of the commit: ${file.bytes} bytes, over the file size limit`,
          file.path,
        );
      }
      if (!staged.staged) {
        this.indexSettled = true;
        return null;
      }
      // A commit message is published with the branch: it passes the redactor too, and
      // closes no issue when merged (GitHub honours closing keywords in commit messages too).
      const clean = outboundText(redact(message, "a commit message"));
      // Where HEAD can be read from the git dir's files (head-from-files.ts), the commit runs
      // `--quiet`: git's summary is a diff of the commit against its parent (shortstat with
      // rename detection: print_commit_summary in builtin/commit.c), which grows with the
      // records (the bus log) and was a third of each commit's time. Without
      // the git dir, the summary line names the new commit in full (`core.abbrev=no`:
      // "[cfa/1 <id>] …"), which saves a `rev-parse HEAD`; when it cannot be read, HEAD is asked.
      const quiet = this.adminDir !== null;
      const out = await this.git.raw([
        "-c",
        "core.abbrev=no",
        "commit",
        ...(quiet ? ["--quiet"] : []),
        "--no-verify",
        "--no-gpg-sign",
        "--message",
        clean,
      ]);
      const sha = (quiet ? null : COMMIT_SUMMARY.exec(out)?.[1]) ?? (await this.head());
      this.indexSettled = true;
      const parent = await reflogParent(this.adminDir, sha);
      if (parent !== null) this.parents.set(sha, parent);
      return sha;
    });
  }

  /**
   * Everything in the tree but `.cfa/` (staged apart, from the engine's own bytes). Whatever
   * made it (a file tool, a merge), no repository reaches a commit (a committed one could run
   * code on a reviewer's clone): the nested sweep runs at every commit. `git add` runs only
   * when the one `git status` says something outside the records changed (most of a job's
   * commits hold records alone); when this repo's last commit (or reset) left the index
   * settled, nothing else can have staged a gitlink since. A look taken just before (lookAtTree:
   * the workflow-file check's) stands for that status: only `.cfa/` was staged since, from the
   * engine's bytes.
   */
  private async stageWholeTree(
    settled: boolean,
    earlier: TreeStatus | null,
    recordsStaged: boolean,
  ): Promise<StageResult> {
    const look = !settled
      ? null
      : earlier !== null
        ? { ...earlier, stagedInside: earlier.stagedInside || recordsStaged }
        : await treeStatus(this.git, RECORDS_DIR);
    await this.removeNested(look?.ignoredFolders);
    if (look !== null && !look.changedOutside) {
      return { refused: [], gitlinks: [], tooLarge: [], staged: look.stagedInside };
    }
    return stageTree(this.git, { exclude: [RECORDS_DIR], maxFileBytes: this.maxFileBytes });
  }

  private async stagePaths(paths: readonly string[]): Promise<StageResult> {
    await this.removeNested();
    return stageTree(this.git, { paths, exclude: [RECORDS_DIR], maxFileBytes: this.maxFileBytes });
  }

  /**
   * One `git status` of the tree (tree-status.ts), kept for the next commit when nothing
   * changes the tree meanwhile: the workflow-file check before a turn's commit reads it,
   * and the commit does not look again (a whole-tree status is costly: one per commit).
   * Whoever changes the tree after looking calls `dropLook`. Null when git cannot say.
   */
  lookAtTree(): Promise<TreeStatus | null> {
    return this.lock.run(async () => {
      this.look = this.indexSettled ? await treeStatus(this.git, RECORDS_DIR) : null;
      return this.look ?? (await treeStatus(this.git, RECORDS_DIR));
    });
  }

  /** The tree changed since `lookAtTree`: the next commit looks for itself. */
  dropLook(): void {
    this.look = null;
  }

  /**
   * Puts the worktree back to its last commit, dropping whatever a turn a crash cut short
   * left uncommitted (ignored files stay, but not under `.cfa/`). A turn is durable once
   * committed, and only then (bounded crash-loss, docs/protocol.md#invariants): the next wake
   * must not read half of one. Nested repositories go first, or `git clean` would keep them
   * (and an empty one fails every later commit).
   * `git clean` before `git reset --hard` ends the same (a file only the index has is
   * removed by the reset, one only HEAD has comes back with it) and needs no room.
   */
  resetToHead(): Promise<void> {
    return this.lock.run(async () => {
      this.look = null;
      // One look first (every wake starts with this reset, and a wake after a
      // clean end finds nothing to put back): a tree whose status lists nothing, with no
      // merge or cherry-pick left in progress, is what `clean` and `reset --hard` would
      // leave, so neither runs. Its ignored folders serve the nested sweep as at a commit.
      const look = await cleanLook(this.git, this.adminDir);
      const swept = await this.removeNested(look?.ignoredFolders);
      if (look === null || !look.clean || swept > 0) {
        // Untracked files first: `clean` only removes, so on a full disk it frees what the
        // turn wrote before `reset` needs room for a new index. What setup installed stays
        // (the agents build and test with it): dependency folders are never committed
        // (stage-tree.ts), so without the excludes a repository that does not ignore them
        // loses them.
        await this.git.raw(["clean", "-d", "--force", "--quiet", ...dependencyCleanExcludes()]);
        await this.git.raw(["reset", "--hard", "--quiet", "HEAD"]);
      }
      await this.records.exclusive(async () => {
        await this.records.reseed();
        await this.stager.settle({ scopes: [RECORDS_DIR], quiet: true });
      });
      this.indexSettled = true;
    });
  }

  /**
   * Before the engine first relies on `.cfa/` here (a task's fresh worktree): loads what it
   * must hold and puts it so, quietly — a difference now is a checkout's conversion
   * (`.gitattributes` eol, encoding, ident), not anyone's change.
   */
  prepare(): Promise<void> {
    return this.records.exclusive(() => this.stager.prepareLocked());
  }

  /** The blob id of `path` at `commit`, or null when absent there (or the commit is unknown). */
  async blobAt(commit: string, path: string): Promise<string | null> {
    try {
      return (
        (await this.git.raw(["rev-parse", "--verify", "--quiet", `${commit}:${path}`])).trim() ||
        null
      );
    } catch {
      return null;
    }
  }

  /**
   * The bytes of `path` as committed at `commit`, or null when it is absent there or not a
   * regular file (a committed symbolic link is never read as its target's text).
   */
  async fileAt(commit: string, path: string): Promise<Buffer | null> {
    const listed = await this.git.run(["ls-tree", "-z", "--full-tree", commit, "--", path]);
    const match = /^(\d{6}) blob ([0-9a-f]+)\t/u.exec(listed.stdout.toString("utf8"));
    if (listed.code !== 0 || !match || (match[1] !== "100644" && match[1] !== "100755")) {
      return null;
    }
    const blob = await this.git.run(["cat-file", "blob", match[2]!]);
    return blob.code === 0 ? blob.stdout : null;
  }

  /**
   * Files a commit of `paths` (all when omitted) would take that are over the file limit.
   * `listed`: the names git would add outside the records, when the caller has just looked.
   */
  oversized(paths?: readonly string[], listed?: readonly string[]): Promise<OversizedFile[]> {
    return oversizedFiles(this.root, this.git, this.maxFileBytes, {
      ...(paths === undefined ? {} : { paths: paths.map(trim) }),
      exclude: [RECORDS_DIR],
      ...(listed === undefined ? {} : { listed }),
    });
  }

  async hasBranch(branch: string): Promise<boolean> {
    return (await this.branchHead(branch)) !== null;
  }

  /**
   * The commit `sha` was made on, when this repo made it and git's reflog said so; undefined
   * otherwise. Lets a publish skip asking git whether a new commit is already published
   * (publish-job-branch.ts): a commit is never an ancestor of its own parent.
   */
  parentOf(sha: string): string | undefined {
    return this.parents.get(sha);
  }

  /** Whether `ancestor` is `descendant` or one of its ancestors. */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const result = await this.git.run(["merge-base", "--is-ancestor", ancestor, descendant]);
    return result.code === 0;
  }

  /**
   * Moves the worktree's branch to `commit` (a descendant of HEAD, or a merge this repo made),
   * keeping uncommitted changes of a turn still running: `reset --keep` refuses rather than
   * overwrite one. False when it refused.
   */
  moveTo(commit: string): Promise<boolean> {
    return this.lock.run(async () => {
      // The index follows the new HEAD: the next commit looks at the tree again.
      this.indexSettled = false;
      this.look = null;
      const result = await this.git.run(["reset", "--keep", "--quiet", commit]);
      return result.code === 0;
    });
  }

  /**
   * Takes in commits someone else pushed to this branch (a person may push to the
   * job branch): a merge of `foreign` into HEAD whose `.cfa/` is HEAD's — the engine's records
   * have one writer, whatever was pushed there. Null when the two conflict outside `.cfa/`
   * (a person must resolve that). Returns the merge commit; HEAD is not moved.
   */
  mergeForeign(foreign: string, message: string): Promise<string | null> {
    return this.lock.run(() => mergeForeign(this.git, foreign, message));
  }

  /** The commit a local branch is at, or null. A loose ref is read without git. */
  async branchHead(branch: string): Promise<string | null> {
    const loose =
      this.adminDir === null
        ? null
        : await looseBranchId(await commonDirOf(this.adminDir), `refs/heads/${branch}`);
    if (loose !== null) return loose;
    try {
      const out = await this.git.raw(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
      return out.trim() || null;
    } catch {
      return null;
    }
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.run(work);
  }

  /** Sweeps the tree (nested-repos.ts); returns how many entries it removed. */
  private async removeNested(ignored?: ReadonlySet<string>): Promise<number> {
    const swept = await sweepTree(this.root, this.git, ignored);
    for (const removed of swept.repos) this.warn("removed a nested repository", removed);
    for (const { path, why } of swept.outOfBounds) {
      this.warn(`removed what lies past the tree's ${why} bound`, shortPath(path));
    }
    return swept.repos.length + swept.outOfBounds.length;
  }

  private warn(what: string, path: string): void {
    this.logger?.warn(`cfa/git: ${what}: ${path}`, { root: this.root });
  }
}

/**
 * Without a git dir from the Workspaces adapter: a plain repository's own `.git` folder, or
 * a linked worktree's admin dir once the repository confirms what its `.git` file names.
 */
function ownGitDir(root: string): string {
  try {
    const dotGit = join(root, ".git");
    if (lstatSync(dotGit).isDirectory()) return dotGit;
  } catch {
    // no .git at all: the verified lookup says so
  }
  return "verified";
}

/** git commit's summary line: `[<branch> <full id>] <subject>` (or `[detached HEAD <id>]`). */
const COMMIT_SUMMARY = /^\[[^\]\n]* ([0-9a-f]{40}|[0-9a-f]{64})\] /mu;

function trim(path: string): string {
  return path.replace(/^\.\//u, "").replace(/\/+$/u, "");
}
