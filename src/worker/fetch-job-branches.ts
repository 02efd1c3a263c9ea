// Before a wake, the clone gets the job's branch and its task branches from GitHub as local
// branches (the engine opens worktrees on `refs/heads/cfa/<N>…`). The remote is the truth:
// local copies are overwritten. The token travels as a header in the environment, as for
// pushes (adapters/github/push-branch.ts), never in argv or .git/config.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { pushEnvironment } from "../adapters/github/index.js";

const run = promisify(execFile);

export interface FetchedBranches {
  /** Whether `cfa/<N>` exists on GitHub: false means the job has not started. */
  job: boolean;
  /** Every branch fetched, job and tasks. */
  branches: string[];
}

export async function fetchJobBranches(options: {
  repoDir: string;
  job: number;
  /** Asked for before each git call: an app's token may have been refreshed meanwhile. */
  token?: string | (() => Promise<string>);
  remote?: string;
}): Promise<FetchedBranches> {
  const remote = options.remote ?? "origin";
  const git = async (...args: string[]) => {
    const url = (
      await run("git", ["remote", "get-url", remote], { cwd: options.repoDir })
    ).stdout.trim();
    const token = typeof options.token === "function" ? await options.token() : options.token;
    const env = pushEnvironment(process.env, token === undefined ? undefined : { url, token });
    return (await run("git", args, { cwd: options.repoDir, env, maxBuffer: 64 * 1024 * 1024 }))
      .stdout;
  };
  const jobBranch = `cfa/${options.job}`;
  // The job's response journal (engine/turn/journal-branch.ts) too: what a run killed
  // mid-turn paid for is charged once and replayed by this one.
  const journal = `cfa-journal/${options.job}`;
  const listed = await git(
    "ls-remote",
    "--heads",
    remote,
    "refs/heads/cfa/*",
    `refs/heads/${journal}`,
  );
  const branches = listed
    .split("\n")
    .map((line) => line.split("\t")[1]?.trim() ?? "")
    .filter((ref) => ref.startsWith("refs/heads/"))
    .map((ref) => ref.slice("refs/heads/".length))
    // `cfa/12-api` is job 12's task; `cfa/123` is another job.
    .filter((name) => name === jobBranch || name.startsWith(`${jobBranch}-`) || name === journal);
  if (branches.length > 0) {
    // Worktrees of an earlier run on this machine would pin their branches.
    await git("worktree", "prune");
    await git(
      "fetch",
      "--no-tags",
      "--quiet",
      remote,
      ...branches.map((name) => `+refs/heads/${name}:refs/heads/${name}`),
    );
  }
  return { job: branches.includes(jobBranch), branches };
}
