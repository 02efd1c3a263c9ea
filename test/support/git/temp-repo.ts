// The one temporary git repository of the tests: real git in a fresh temp dir, on `main`,
// with a known identity and one commit, so a test starts from what a person's clone looks
// like. `makeTempRemote` adds GitHub's side: a bare repository the seed pushed `main` to,
// cloned as actions/checkout would. Git here is the test's own, plain `git`: the engine's
// hardened runner (src/git/git-client.ts) is what is under test, never this.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Runs git in `cwd` and returns its output, trimmed; throws with git's stderr on failure. */
export function git(cwd: string, ...args: string[]): string {
  return gitRaw(cwd, ...args).trim();
}

/** `git` with its output exactly as git wrote it (a file's last newline, say). */
export function gitRaw(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    // A whole history with its patches (`log --all -p`) is more than the default 1 MiB.
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** A fresh folder under the system's temp dir, its real path (macOS's /tmp is a link). */
export function tempDir(prefix = "cfa-test-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes `content` at `relative` below `dir`, making the folders on the way. */
export function writeAt(dir: string, relative: string, content: string | Buffer): void {
  const file = join(dir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export interface Identity {
  name: string;
  email: string;
}

export const ANA: Identity = { name: "Ana", email: "ana@example.com" };

/** `git add --all` and a commit in `dir` (a worktree too) as `by`; the new commit's id. */
export function commitAllIn(dir: string, message: string, by: Identity = ANA): string {
  git(dir, "add", "--all");
  const as = ["-c", `user.name=${by.name}`, "-c", `user.email=${by.email}`];
  git(dir, ...as, "commit", "--quiet", "--no-verify", "--message", message);
  return git(dir, "rev-parse", "HEAD");
}

export interface TempRepoOptions {
  /** The temp dir's name prefix (shows whose leftovers a crashed run left). */
  prefix?: string;
  /** Files of the first commit; `{ "README.md": "# demo\n" }` by default. */
  files?: Record<string, string>;
  /** Written to the repository's config (`user.name`, `user.email`); Ana by default. */
  identity?: Identity | null;
  /** Make no first commit (an empty repository on an unborn `main`). */
  empty?: boolean;
  /** The repository's folder below the temp dir; `repo` by default, "" for the temp dir itself. */
  at?: string;
  /** Use this folder (made if missing) instead of a fresh temp dir. */
  root?: string;
}

export interface TempRepo {
  /** The temp dir: everything the test made lives below it, and goes with `cleanup`. */
  root: string;
  /** The repository's work tree. */
  repo: string;
  /** git in the repository. */
  git(...args: string[]): string;
  write(relative: string, content: string | Buffer): void;
  /** `git add --all` and a commit as the identity (Ana without one); the new commit's id. */
  commitAll(message: string): string;
  cleanup(): void;
}

export function makeTempRepo(options: TempRepoOptions = {}): TempRepo {
  const root = options.root ?? tempDir(options.prefix);
  return repoIn(root, join(root, options.at ?? "repo"), options);
}

function repoIn(root: string, repo: string, options: TempRepoOptions): TempRepo {
  mkdirSync(repo, { recursive: true });
  const inRepo = (...args: string[]) => git(repo, ...args);
  inRepo("init", "--quiet", "--initial-branch=main");
  const identity = options.identity === undefined ? ANA : options.identity;
  if (identity !== null) {
    inRepo("config", "user.name", identity.name);
    inRepo("config", "user.email", identity.email);
  }
  const write = (relative: string, content: string | Buffer) => writeAt(repo, relative, content);
  const commitAll = (message: string) => commitAllIn(repo, message, identity ?? ANA);
  if (options.empty !== true) {
    for (const [path, text] of Object.entries(options.files ?? { "README.md": "# demo\n" })) {
      write(path, text);
    }
    commitAll("initial");
  }
  return { root, repo, git: inRepo, write, commitAll, cleanup: () => removeDir(root) };
}

export interface TempRemote {
  root: string;
  /** GitHub's git side: a bare repository holding what the seed pushed. */
  bare: string;
  /** The repository `main` was pushed from (push more with `seed.git("push", bare, …)`). */
  seed: TempRepo;
  /** A fresh clone of the bare repository at `root/<name>`, as actions/checkout leaves one. */
  clone(name: string): string;
  cleanup(): void;
}

export function makeTempRemote(options: Omit<TempRepoOptions, "at" | "empty"> = {}): TempRemote {
  const root = options.root ?? tempDir(options.prefix);
  mkdirSync(root, { recursive: true });
  const bare = join(root, "github.git");
  git(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  const seed = repoIn(root, join(root, "seed"), options);
  seed.git("push", "--quiet", bare, "main");
  return {
    root,
    bare,
    seed,
    clone: (name) => {
      const at = join(root, name);
      git(root, "clone", "--quiet", bare, at);
      return at;
    },
    cleanup: () => removeDir(root),
  };
}
