// Real git for the fan-out simulation: one bare remote, and a fresh clone for every run (as
// every GitHub runner starts from a checkout). The remote's post-receive hook logs every ref
// update with who pushed it (the pusher's `--push-option writer=…`), so a trial can check
// that each branch was written only by its lease holder. Git commands are child processes:
// killing a run sends SIGKILL to the git command it has in flight (a cancel during a push).

import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile, chmod } from "node:fs/promises";
import { join, dirname } from "node:path";
import { promisify } from "node:util";
import type { RunGit } from "../../../src/engine/fanout/leased-refs.js";
import { startGitHttpServer, type GitHttpServer } from "../github/git-http-server.js";

const exec = promisify(execFile);

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "sim",
  GIT_AUTHOR_EMAIL: "sim@example.invalid",
  GIT_COMMITTER_NAME: "sim",
  GIT_COMMITTER_EMAIL: "sim@example.invalid",
  GIT_TERMINAL_PROMPT: "0",
};

export async function git(cwd: string, args: string[], signal?: AbortSignal): Promise<string> {
  const t0 = Date.now();
  try {
    return await gitRaw(cwd, args, signal);
  } finally {
    if (process.env.CFA_SIM_DEBUG && Date.now() - t0 > 500)
      console.log("slow git", Date.now() - t0, args.join(" ").slice(0, 80));
  }
}

async function gitRaw(cwd: string, args: string[], signal?: AbortSignal): Promise<string> {
  const { stdout } = await exec("git", args, {
    cwd,
    env: ENV,
    maxBuffer: 16 << 20,
    ...(signal ? { signal, killSignal: "SIGKILL" as const } : {}),
  });
  return stdout;
}

export interface PushLogEntry {
  old: string;
  new: string;
  ref: string;
  writer: string;
  /** Who the pusher said it is (its push option); over HTTP `writer` is who its token is. */
  claimed: string;
  epoch: number | null;
}

export interface Remote {
  bare: string;
  /** What clones fetch from and push to: the bare path, or its URL over git http-backend. */
  url: string;
  readLog(): Promise<PushLogEntry[]>;
  /** Over HTTP: a token for `writer`, taken while `valid()` (GitHub's GITHUB_TOKEN ends with its job). */
  issue(writer: string, valid: () => boolean): string | null;
  close(): Promise<void>;
}

const ZERO = "0".repeat(40);

/**
 * A bare remote with `main` holding one commit, and the push log hook. With `http`, served by
 * `git http-backend` (test/support/github/git-http-server.ts): every run has its own token,
 * refused once its run has ended, and the hook logs who the token is (REMOTE_USER).
 */
export async function createRemote(
  root: string,
  options: { http?: boolean } = {},
): Promise<Remote> {
  const bare = join(root, "remote.git");
  const log = join(root, "push-log.txt");
  await mkdir(bare, { recursive: true });
  await git(bare, ["init", "--quiet", "--bare", "--initial-branch=main"]);
  await git(bare, ["config", "receive.advertisePushOptions", "true"]);
  await writeFile(log, "");
  const hook = join(bare, "hooks", "post-receive");
  await mkdir(dirname(hook), { recursive: true });
  await writeFile(
    hook,
    `#!/bin/sh
opts=""
i=0
while [ "$i" -lt "\${GIT_PUSH_OPTION_COUNT:-0}" ]; do
  eval "o=\\$GIT_PUSH_OPTION_$i"
  opts="$opts $o"
  i=$((i+1))
done
if [ -n "$REMOTE_USER" ] && [ "$REMOTE_USER" != "x-access-token" ]; then
  opts="$opts token=$REMOTE_USER"
fi
while read old new ref; do
  echo "$old $new $ref$opts" >> '${log}'
done
`,
  );
  await chmod(hook, 0o755);
  const seed = join(root, "seed");
  await mkdir(seed);
  await git(seed, ["init", "--quiet", "--initial-branch=main"]);
  await writeFile(join(seed, "README.md"), "a project\n");
  await git(seed, ["add", "-A"]);
  await git(seed, ["commit", "--quiet", "-m", "init"]);
  await git(seed, ["push", "--quiet", bare, "main:refs/heads/main"]);
  const tokens = new Map<string, { writer: string; valid: () => boolean }>();
  let server: GitHttpServer | null = null;
  if (options.http === true) {
    server = await startGitHttpServer({
      root,
      accepts: (token) => tokens.get(token)?.valid() === true,
      userOf: (token) => tokens.get(token)?.writer ?? "nobody",
    });
  }
  return {
    bare,
    url: server ? `${server.url}/remote.git` : bare,
    issue(writer, valid) {
      if (!server) return null;
      const token = `ghs_sim${tokens.size}_${writer.replace(/\W/g, "")}`;
      tokens.set(token, { writer, valid });
      return token;
    },
    close: () => server?.close() ?? Promise.resolve(),
    async readLog() {
      const text = await readFile(log, "utf8");
      return text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => {
          const [old, nw, ref, ...opts] = l.trim().split(/\s+/);
          const kv = Object.fromEntries(opts.map((o) => o.split("=") as [string, string]));
          return {
            old: old!,
            new: nw!,
            ref: ref!,
            // Over HTTP, who the token is; on a plain path, who the pusher says it is.
            writer: kv.token ?? kv.writer ?? "unknown",
            claimed: kv.writer ?? "unknown",
            epoch: kv.epoch === undefined ? null : Number(kv.epoch),
          };
        });
    },
  };
}

export const isZero = (sha: string) => sha === ZERO;

/** A run's clone and its git: killed with the run, and a push answer lost on request. */
export interface Clone {
  dir: string;
  run: RunGit;
}

export async function cloneFor(
  root: string,
  remote: Remote,
  name: string,
  killSignal: AbortSignal,
  faults: { beforePush?: () => void; afterPush?: () => void } = {},
  token: string | null = null,
): Promise<Clone> {
  const dir = join(root, name);
  // The token goes in each command's config, as the worker passes it, never in .git/config.
  const auth = token
    ? [
        "-c",
        `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`,
      ]
    : [];
  await git(root, [...auth, "clone", "--quiet", "--no-checkout", remote.url, dir], killSignal);
  const run: RunGit = async (args, options) => {
    const signal = options?.signal ? AbortSignal.any([killSignal, options.signal]) : killSignal;
    if (args[0] !== "push") return git(dir, [...auth, ...args], signal);
    faults.beforePush?.();
    const out = await git(dir, [...auth, ...args], signal);
    faults.afterPush?.();
    return out;
  };
  return { dir, run };
}
