// A minimal git runner: `git -c k=v … <args>` with execFile semantics (no shell), a minimal
// environment, and simple-git's error rule (a non-zero exit with something on stderr is an
// error whose message is stdout + stderr). Why not simple-git for these calls: simple-git 4
// waits 50 ms after every command that prints nothing (its completion detection), and the
// engine runs hundreds of silent commands (add, commit --quiet, update-ref…) per job; the
// demo ran in ~14 s with it and ~4.5 s without. Pushes, which talk to a remote and print,
// still go through simple-git (src/adapters/github/push-branch.ts).

import { spawn } from "node:child_process";

export interface GitClient {
  readonly baseDir: string;
  /** Runs git with `args` in baseDir and resolves its stdout. */
  raw(args: readonly string[]): Promise<string>;
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
  /** `key=value` entries passed as `-c key=value` before every command. */
  config?: readonly string[];
  /**
   * Extra variables per command, e.g. GIT_AUTHOR_DATE/GIT_COMMITTER_DATE from the job's
   * clock, so a replayed job makes the very same commits.
   */
  env?: () => Record<string, string>;
}

/** Author and committer dates from a clock reading, as git reads them. */
export function commitDateEnv(date: Date): Record<string, string> {
  const stamp = `${Math.floor(date.getTime() / 1000)} +0000`;
  return { GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp };
}

/** Variables git may see: enough to run, nothing that points it elsewhere or holds a token. */
const PASSED = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "SYSTEMROOT"] as const;

export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: "0" };
  for (const key of PASSED) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

export function gitClient(options: GitClientOptions | string): GitClient {
  const {
    baseDir,
    config = [],
    env,
  } = typeof options === "string" ? ({ baseDir: options } as GitClientOptions) : options;
  const prefix = config.flatMap((entry) => ["-c", entry]);
  return {
    baseDir,
    raw(args) {
      const argv = [...prefix, ...args];
      return new Promise((resolve, reject) => {
        const child = spawn("git", argv, {
          cwd: baseDir,
          env: { ...gitEnv(), ...(env?.() ?? {}) },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
        child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
        child.on("error", (error) =>
          reject(new GitCommandError(`cfa/git: cannot run git: ${error.message}`, args, null)),
        );
        child.on("close", (code) => {
          const stdout = Buffer.concat(out).toString("utf8");
          const stderr = Buffer.concat(err).toString("utf8");
          if (code !== 0 && stderr.length > 0) {
            reject(new GitCommandError(stdout + stderr, args, code));
          } else {
            resolve(stdout);
          }
        });
      });
    },
  };
}
