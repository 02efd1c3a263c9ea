// Staging a work tree an agent wrote, for one of the engine's commits. What
// an agent can put in the tree must neither run anything nor wedge the job:
//
// - `--ignore-errors` ("continue adding the others":
//   https://git-scm.com/docs/git-add#Documentation/git-add.txt---ignore-errors): a path git
//   refuses (`invalid path`: a `.GIT` folder, a `.gitmodules` link) or cannot add (an empty
//   nested repository: "does not have a commit checked out") is left out, not the commit;
// - no gitlink ever enters the index from the tree: a new one is removed, a changed one put
//   back as HEAD has it (the repository's own submodules are untouched), so git never has a
//   reason to start inside a nested repository later;
// - no file over the size limit enters it: GitHub refuses a push holding one,
//   and every later push of the branch; it stays in the tree, untracked.
// - no dependency folder (`node_modules`, `.venv`…, dependency-folders.ts) at any depth: a
//   workspace's setup fills them, and a repository whose .gitignore forgets one (or an agent
//   that edits .gitignore) must not commit thousands of installed files. Named
//   paths are filtered here instead: git 2.39 applies an `:(exclude,glob)**/.tox` pathspec
//   to literal paths it does not match (`assets/brief.md`, `src/components/x.md` were left
//   out, silently: files copied to a task at dispatch stayed untracked, for a reset of the
//   task's worktree to delete); over the whole tree (`.`) the excludes are exact.

import { dependencyExcludes, inDependencyFolder } from "./dependency-folders.js";
import { GitCommandError, type GitClient } from "./git-client.js";
import { GITHUB_FILE_LIMIT_BYTES } from "./file-size-limit.js";
import { filesGitWouldAdd } from "./files-git-would-add.js";
import { oversizedFiles, type OversizedFile } from "./oversized-files.js";

export interface StageResult {
  /** Paths git refused or could not add: not in this commit. */
  refused: string[];
  /** Gitlinks the tree tried to add or move: not in this commit. */
  gitlinks: string[];
  /** Files over the size limit: not in this commit, left untracked. */
  tooLarge: OversizedFile[];
  /** Whether the index now differs from HEAD. */
  staged: boolean;
}

// git's per-path errors under --ignore-errors (read-cache.c, builtin/add.c): the path is
// left out and named to the caller. An unreadable file (chmod 000) is one of them too.
const REFUSED_LINE =
  /^error: (?:invalid path '(.+)'|'(.+)' does not have a commit checked out|unable to index file '(.+)'|unable to add '(.+)' to index)$/u;
const ZERO = /^0+$/u;

/**
 * Stages `paths` (root-relative, literal) or everything, minus `exclude` prefixes and files
 * over `maxFileBytes` (never more than GitHub's 100 MiB, the default).
 */
export async function stageTree(
  git: GitClient,
  options: { paths?: readonly string[]; exclude?: readonly string[]; maxFileBytes?: number } = {},
): Promise<StageResult> {
  const paths = options.paths?.filter((file) => !inDependencyFolder(file));
  const specs = paths === undefined ? ["."] : paths.map((file) => `:(literal)${file}`);
  if (specs.length === 0) return { refused: [], tooLarge: [], ...(await settleIndex(git)) };
  const maxBytes = Math.min(
    options.maxFileBytes ?? GITHUB_FILE_LIMIT_BYTES,
    GITHUB_FILE_LIMIT_BYTES,
  );
  let listed: readonly string[] | null = null;
  const tooLarge = await oversizedFiles(git.baseDir, git, maxBytes, {
    ...(paths === undefined ? {} : { paths }),
    exclude: options.exclude ?? [],
    onListed: (files) => (listed = files),
  });
  // Nothing git would add (no new file it does not ignore, and no tracked one changed, an
  // unstaged deletion included: https://git-scm.com/docs/git-ls-files "--modified"): no
  // `git add`, which would stage nothing (a task's close commits its pending
  // work, and there is none once its turns were committed).
  if (listed !== null && (listed as readonly string[]).length === 0) {
    return { refused: [], tooLarge, ...(await settleIndex(git)) };
  }
  const excluded = [
    ...[...(options.exclude ?? []), ...tooLarge.map((file) => file.path)].map(
      (prefix) => `:(exclude,literal)${prefix}`,
    ),
    ...(paths === undefined ? dependencyExcludes() : []),
  ];
  // The names git would add under these pathspecs are among those just listed for their
  // size (the same pathspecs, fewer excludes): when none of those holds a control character,
  // git is not asked again (one ls-files a whole-tree commit fewer).
  const controlNamed =
    listed !== null && !(listed as readonly string[]).some(hasControl)
      ? []
      : await namesWithControls(git, [...specs, ...excluded]);
  excluded.push(...controlNamed.map((file) => `:(exclude,literal)${file}`));
  const args = ["add", "--all", "--ignore-errors", "--", ...specs, ...excluded];
  const added = await git.run(args);
  const refused = new Set<string>(controlNamed);
  if (added.code !== 0) {
    for (const line of added.stderr.split("\n")) {
      const match = REFUSED_LINE.exec(line);
      const file = match?.slice(1).find((group) => group !== undefined);
      if (file !== undefined) refused.add(file.replace(/\/$/u, ""));
      else if (line.startsWith("fatal: ") && line !== "fatal: adding files failed") {
        throw new GitCommandError(
          `cfa/git: git add failed: ${added.stderr.trim()}`,
          args,
          added.code,
        );
      }
    }
    if (refused.size === 0 && !/paths are ignored/u.test(added.stderr)) {
      throw new GitCommandError(
        `cfa/git: git add failed: ${added.stderr.trim() || `exit ${added.code}`}`,
        args,
        added.code,
      );
    }
  }
  return { refused: [...refused].sort(), tooLarge, ...(await settleIndex(git)) };
}

/**
 * The files `git add` would take whose names hold a control character: left out, because git
 * prints names raw in its error lines. A name like "x\nfatal: y: No space left on device\n"
 * with a file git refuses below it made `git add` print a line that passed for git's own
 * fatal error: the commit threw, read as a full disk (ports/disk-full.ts: the job paused,
 * then the turn failed), and without those words every wake threw on it (the job wedged).
 */
async function namesWithControls(git: GitClient, pathspecs: readonly string[]): Promise<string[]> {
  return (await filesGitWouldAdd(git, pathspecs))?.filter(hasControl) ?? [];
}

function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Puts every staged gitlink that HEAD does not have (or has elsewhere) back as HEAD has it,
 * and says whether anything else is staged: one look at the index against HEAD.
 */
export async function settleIndex(
  git: GitClient,
): Promise<{ gitlinks: string[]; staged: boolean }> {
  const diffAgainst = (base: string) =>
    git.run([
      "diff-index",
      "--cached",
      "--raw",
      "-z",
      "--no-renames",
      "--ignore-submodules=none",
      base,
    ]);
  let result = await diffAgainst("HEAD");
  if (result.code !== 0) {
    // No commit yet (an unborn branch): everything staged is new, against the empty tree.
    const empty = (await git.raw(["hash-object", "-t", "tree", "--stdin"], { input: "" })).trim();
    result = await diffAgainst(empty);
    if (result.code !== 0) {
      throw new GitCommandError(
        `cfa/git: git diff-index failed: ${result.stderr.trim()}`,
        ["diff-index"],
        result.code,
      );
    }
  }
  const diff = result.stdout.toString("utf8");
  const fields = diff.split("\0");
  const restore: string[] = [];
  const gitlinks: string[] = [];
  let others = 0;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // `:<old mode> <new mode> <old sha> <new sha> <status>` then the path.
    const [oldMode, newMode, oldSha] = fields[i]!.slice(1).split(" ");
    const file = fields[i + 1]!;
    if (newMode !== "160000") {
      others += 1;
      continue;
    }
    gitlinks.push(file);
    restore.push(
      oldMode === "160000" && oldSha !== undefined && !ZERO.test(oldSha)
        ? `160000 ${oldSha}\t${file}`
        : `0 ${"0".repeat(oldSha?.length ?? 40)}\t${file}`,
    );
  }
  if (restore.length > 0) {
    await git.raw(["update-index", "--index-info"], { input: `${restore.join("\n")}\n` });
  }
  return { gitlinks, staged: others > 0 };
}
