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
    this.git = simpleGit(root).env({
      ...cleanGitEnv(),
      GIT_AUTHOR_NAME: BOT_IDENTITY.name,
      GIT_AUTHOR_EMAIL: BOT_IDENTITY.email,
      GIT_COMMITTER_NAME: BOT_IDENTITY.name,
      GIT_COMMITTER_EMAIL: BOT_IDENTITY.email,
    });
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

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.run(work);
  }
}

/** Git must not pick up hooks' or the caller's environment that points elsewhere. */
export function cleanGitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (key.startsWith("GIT_")) continue;
    env[key] = value;
  }
  return env;
}
