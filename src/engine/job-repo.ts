// Git on the job's worktree: commits of records and artifacts, one per turn, serialised.

// The git runner is the one adapter module the engine uses directly: the job worktree is the
// engine's own record store (like its file helpers), not a port to swap.
import { commitDateEnv, gitClient, type GitClient } from "../adapters/git/git-client.js";
import { redact } from "../secrets/index.js";
import { Mutex } from "./mutex.js";

export const BOT_IDENTITY = {
  name: "cfa-bot",
  email: "cfa-bot@users.noreply.github.com",
};

export class JobRepo {
  readonly git: GitClient;
  private readonly lock = new Mutex();

  constructor(
    readonly root: string,
    /** The job's clock: commit dates come from it, so a replay makes the same commits. */
    now?: () => Date,
  ) {
    // The bot commits as itself whatever the machine's git config says.
    this.git = gitClient({
      baseDir: root,
      config: [
        `user.name=${BOT_IDENTITY.name}`,
        `user.email=${BOT_IDENTITY.email}`,
        "commit.gpgsign=false",
      ],
      ...(now ? { env: () => commitDateEnv(now()) } : {}),
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
      // A commit message is published with the branch: it passes the redactor too.
      const clean = redact(message, "a commit message");
      await this.git.raw(["commit", "--quiet", "--no-verify", "--message", clean]);
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
