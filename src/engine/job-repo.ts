// Git on the job's worktree: commits of records and artifacts, one per turn, serialised.

import { simpleGit, type SimpleGit } from "simple-git";
import { Mutex } from "./mutex.js";

export const BOT_IDENTITY = {
  name: "cfa-bot",
  email: "cfa-bot@users.noreply.github.com",
};

export class JobRepo {
  readonly git: SimpleGit;
  private readonly lock = new Mutex();

  constructor(readonly root: string) {
    // Identity as `-c` options: simple-git refuses GIT_* variables, and the bot must commit
    // as itself whatever the machine's git config says.
    this.git = simpleGit(root, {
      config: [
        `user.name=${BOT_IDENTITY.name}`,
        `user.email=${BOT_IDENTITY.email}`,
        "commit.gpgsign=false",
      ],
    }).env(cleanGitEnv());
  }

  async head(): Promise<string> {
    return (await this.git.raw(["rev-parse", "HEAD"])).trim();
  }

  /**
   * Commits `paths` (or everything when omitted) with `message`; returns the new commit, or
   * null when there was nothing to commit. Serialised with every other writer.
   */
  commit(message: string, paths?: string[]): Promise<string | null> {
    return this.lock.run(async () => {
      await this.git.raw(["add", "--all", "--", ...(paths ?? ["."])]);
      const staged = await this.git.raw(["diff", "--cached", "--name-only"]);
      if (staged.trim() === "") return null;
      await this.git.raw(["commit", "--quiet", "--no-verify", "--message", message]);
      return this.head();
    });
  }

  /**
   * Puts the worktree back to its last commit, dropping whatever a turn a crash cut short
   * left uncommitted (ignored files stay). A turn is durable once committed, and only then
   * (seed 000 §11 bounded crash-loss): the next wake must not read half of one.
   */
  resetToHead(): Promise<void> {
    return this.lock.run(async () => {
      await this.git.raw(["reset", "--hard", "--quiet", "HEAD"]);
      await this.git.raw(["clean", "-d", "--force", "--quiet"]);
    });
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

  async hasBranch(branch: string): Promise<boolean> {
    try {
      const out = await this.git.raw(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
      return out.trim() !== "";
    } catch {
      return false;
    }
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.run(work);
  }
}

/**
 * Git runs with a minimal environment: nothing from the caller's that could point it
 * elsewhere (GIT_DIR and friends), run an editor or pager, or carry a token.
 */
export function cleanGitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
