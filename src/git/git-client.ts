// The one git runner of the engine: every git command the engine runs — over its
// own repository, a job's worktree or a task's, all of which agents' commands can write — goes
// through here, hardened so that nothing in the tree can make git execute anything:
//
// - `-c` entries (HARDENED_CONFIG) outrank every config file git reads ("the command line
//   … overrides values in all other files": https://git-scm.com/docs/git-config#FILES, and
//   are passed on to the git processes a command starts, GIT_CONFIG_PARAMETERS);
// - no system or global config (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null, no HOME or
//   XDG_CONFIG_HOME: https://git-scm.com/docs/git#Documentation/git.txt-GITCONFIGGLOBAL);
// - the git dir is passed explicitly (GIT_DIR + GIT_WORK_TREE:
//   https://git-scm.com/docs/git#Documentation/git.txt-GITDIR) whenever the caller knows it,
//   so a worktree's `.git` FILE — which an agent's command can rewrite to `gitdir: <a repo it
//   made>` — is never read to find one (`gitDir: "verified"` discovers it only after checking
//   it against the repository's own registration, see worktree-git-dir.ts);
// - attribute drivers the repository's config defines are switched off per command
//   (driver-overrides.ts), so a `.gitattributes` an agent writes can route paths to nothing.
//
// It runs git directly with execFile semantics (no shell) and simple-git's error rule (a
// non-zero exit with something on stderr is an error whose message is stdout + stderr). Why
// not simple-git here: simple-git 4 waits 50 ms after every command that prints nothing, and
// the engine runs hundreds of silent commands per job (demo ~14 s with it, ~4.5 s without).

import { spawn } from "node:child_process";
import { driverOverrides } from "./driver-overrides.js";
import type { GitResult } from "./git-result.js";
import { verifiedGitDir } from "./worktree-git-dir.js";
import { GitLineProcess } from "./git-line-process.js";
import { gitStarted, spawnGitProcess } from "./git-spawner.js";

export type { GitResult } from "./git-result.js";
export type { GitLineProcess } from "./git-line-process.js";

export interface GitRunOptions {
  /** Written to git's stdin (then closed); stdin is empty otherwise. */
  input?: string | Buffer;
}

export interface GitClient {
  readonly baseDir: string;
  /** Runs git with `args` in baseDir and resolves its stdout (rejects per the rule above). */
  raw(args: readonly string[], options?: GitRunOptions): Promise<string>;
  /** Runs git and resolves whatever happened: for commands whose exit code is the answer. */
  run(args: readonly string[], options?: GitRunOptions): Promise<GitResult>;
  /**
   * One git process kept open for a line-per-request command (`hash-object --stdin-paths`),
   * hardened alike; ends when idle (see git-line-process.ts).
   */
  lines(args: readonly string[]): GitLineProcess;
}

export class GitCommandError extends Error {
  override readonly name = "GitCommandError";
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

export interface GitClientOptions {
  baseDir: string;
  /**
   * The git dir, never discovered from baseDir's `.git`: an absolute path, or "verified" to
   * find a linked worktree's admin dir from its `.git` file only once the repository's own
   * registration confirms it. Absent: git discovers it (only for trees agents cannot write:
   * the repository the engine was pointed at).
   */
  gitDir?: string | "verified";
  /** `key=value` entries passed as `-c key=value` before every command. */
  config?: readonly string[];
  /**
   * Extra variables per command, e.g. GIT_AUTHOR_DATE/GIT_COMMITTER_DATE from the job's
   * clock, so a replayed job makes the very same commits.
   */
  env?: () => Record<string, string>;
}

/**
 * Config that makes git run nothing a tree or a config file names. Each entry is checked in
 * git's own documentation (https://git-scm.com/docs/git-config unless said otherwise):
 */
export const HARDENED_CONFIG: readonly string[] = [
  // "core.fsmonitor: If set to true, enable the built-in file system monitor daemon … If set
  // to a path name, this variable contains the pathname of the fsmonitor hook command."
  // `false` is neither; passed on to a nested repository's git, where an agent
  // would plant its payload.
  "core.fsmonitor=false",
  // "core.hooksPath: … Git will try to find your hooks in that directory" — /dev/null is a
  // file, so no hook is ever found. `--no-verify` only skips pre-commit and commit-msg
  // (https://git-scm.com/docs/git-commit#Documentation/git-commit.txt---no-verify);
  // post-commit, post-merge, post-checkout and reference-transaction would still run
  // (https://git-scm.com/docs/githooks).
  "core.hooksPath=/dev/null",
  // "core.untrackedCache: Determines what to do about the untracked cache feature of the
  // index" — off: no cache written into (or trusted from) the index.
  "core.untrackedCache=false",
  // The global attributes file (default $XDG_CONFIG_HOME/git/attributes) is not read
  // (https://git-scm.com/docs/gitattributes): attributes select drivers.
  "core.attributesFile=/dev/null",
  // "submodule.recurse: Whether to enable the option --recurse-submodules by default" — no:
  // git never descends into a nested repository on the engine's behalf.
  "submodule.recurse=false",
  // "diff.ignoreSubmodules: Sets the default value of --ignore-submodules" — all: no
  // `git status` is started inside a gitlink to see whether it is dirty.
  "diff.ignoreSubmodules=all",
  "status.submoduleSummary=false",
  // Signing and signature checks run gpg.program; the engine's commits are not signed.
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "merge.verifySignatures=false",
  // "gc.auto … setting this to 0 disables" the automatic gc a commit may start (in the
  // background, outliving the command), and with it the pre-auto-gc hook.
  "gc.auto=0",
  "maintenance.auto=false",
  // "safe.bareRepository: … explicit: Git only works with bare repositories specified via
  // the top-level --git-dir command-line option, or the GIT_DIR environment variable" — a
  // bare repository planted in a tree is never picked up by discovery.
  "safe.bareRepository=explicit",
];

/** Variables git may see: enough to run, nothing that points it elsewhere or holds a token. */
const PASSED = ["PATH", "TMPDIR", "LANG", "LC_ALL", "TZ", "SYSTEMROOT"] as const;

/** The environment of every engine git command (HOME and XDG_CONFIG_HOME deliberately absent). */
export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    // https://git-scm.com/docs/gitattributes: "GIT_ATTR_NOSYSTEM … the system-wide
    // attributes file is not read".
    GIT_ATTR_NOSYSTEM: "1",
    // git launches no editor at all for ":" (editor.c: `if (strcmp(editor, ":"))`); the
    // engine always passes its messages, so nothing should ask for one.
    GIT_EDITOR: ":",
    GIT_PAGER: "cat",
  };
  for (const key of PASSED) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Author and committer dates from a clock reading, as git reads them. */
export function commitDateEnv(date: Date): Record<string, string> {
  const stamp = `${Math.floor(date.getTime() / 1000)} +0000`;
  return { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp };
}

export function gitClient(options: GitClientOptions | string): GitClient {
  const {
    baseDir,
    gitDir,
    config = [],
    env,
  } = typeof options === "string" ? ({ baseDir: options } as GitClientOptions) : options;
  const prefix = [...HARDENED_CONFIG, ...config].flatMap((entry) => ["-c", entry]);

  // Both memoised per client, and forgotten on failure so a later call tries again.
  let location: Promise<Record<string, string>> | undefined;
  const locate = (): Promise<Record<string, string>> => {
    if (location === undefined) {
      const found = (async (): Promise<Record<string, string>> => {
        if (gitDir === undefined) return {};
        const dir = gitDir === "verified" ? await verifiedGitDir(baseDir) : gitDir;
        return { GIT_DIR: dir, GIT_WORK_TREE: baseDir };
      })();
      found.catch(() => (location = undefined));
      location = found;
    }
    return location;
  };
  const drivers = (where: Record<string, string>): Promise<string[]> =>
    driverOverrides(where.GIT_DIR ?? baseDir, (args) =>
      spawnGit(baseDir, prefix, args, where, env),
    );

  const run = async (args: readonly string[], runOptions?: GitRunOptions): Promise<GitResult> => {
    const where = await locate();
    const off = (await drivers(where)).flatMap((entry) => ["-c", entry]);
    return spawnGit(baseDir, [...prefix, ...off], args, where, env, runOptions?.input);
  };

  return {
    baseDir,
    run,
    lines: (args) =>
      new GitLineProcess(async () => {
        const where = await locate();
        const off = (await drivers(where)).flatMap((entry) => ["-c", entry]);
        gitStarted.publish({ args: [...prefix, ...off, ...args] });
        return spawn("git", [...prefix, ...off, ...args], {
          cwd: baseDir,
          env: { ...gitEnv(), ...(env?.() ?? {}), ...where },
          stdio: ["pipe", "pipe", "pipe"],
        });
      }),
    async raw(args, runOptions) {
      const result = await run(args, runOptions);
      const stdout = result.stdout.toString("utf8");
      if (result.code !== 0 && result.stderr.length > 0) {
        throw new GitCommandError(stdout + result.stderr, args, result.code);
      }
      return stdout;
    },
  };
}

function spawnGit(
  cwd: string,
  prefix: readonly string[],
  args: readonly string[],
  where: Record<string, string>,
  env: (() => Record<string, string>) | undefined,
  input?: string | Buffer,
): Promise<GitResult> {
  // Started by the spawner (git-spawner.ts: off this thread when it can), exactly as given.
  return spawnGitProcess({
    args: [...prefix, ...args],
    cwd,
    env: { ...gitEnv(), ...(env?.() ?? {}), ...where },
    ...(input === undefined ? {} : { input }),
  }).catch((error: Error) => {
    throw new GitCommandError(error.message, args, null);
  });
}
