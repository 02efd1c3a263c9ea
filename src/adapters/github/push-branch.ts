// Publishing a job branch: `git push` as compare-and-swap. The lease names the exact commit
// the engine believes the branch is at (or "absent"), so if GitHub's branch moved the push
// is refused and nothing is overwritten (one writer per job). The token
// travels as an http.extraHeader through GIT_CONFIG_* environment variables: never in
// argv (visible to every process), never in .git/config (left on disk).
//
// The header is scoped to the remote's URL and preceded by an empty value, which resets
// the list: a clone made by actions/checkout keeps its own
// `http.https://github.com/.extraheader`, and git would otherwise send both headers (or,
// for a plain `http.extraHeader`, only the clone's, the more specific one).

import { simpleGit } from "simple-git";
import type { Logger } from "../../ports/logger.js";
import { GitHubForgeError } from "./github-forge-error.js";
import { PushRejectedError } from "./push-rejected-error.js";
import type { Redact } from "../../secrets/index.js";
import { validatePush } from "./validate-push.js";
import { WorkflowPushError } from "./workflow-push-error.js";

export interface PushTarget {
  repoDir: string;
  remote: string;
  token?: string | undefined;
  redact: Redact;
  logger: Logger;
  /** The environment git runs in; by default this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether the token may push changes under .github/workflows/ (an app with the Workflows
   * permission and `pushWorkflows: true`). When not, such a push is refused here, before git
   * sends anything: GitHub would refuse it anyway (engine/tree/workflow-files.ts says why).
   */
  pushWorkflows?: boolean;
}

const PUSH_VARIABLES = [
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_KEY_0",
  "GIT_CONFIG_VALUE_0",
  "GIT_CONFIG_KEY_1",
  "GIT_CONFIG_VALUE_1",
  "GIT_TERMINAL_PROMPT",
] as const;

// simple-git refuses a task whose explicit environment holds a variable it guards (every
// GIT_* plus these) unless allowed, so the inherited ones are left out: git gets only ours.
const GUARDED = new Set(["editor", "pager", "prefix", "ssh_askpass", "visual"]);

/** The credentials git sends to GitHub for an installation or Actions token. */
export function basicCredentials(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString("base64");
}

export function basicAuthHeader(token: string): string {
  return `AUTHORIZATION: basic ${basicCredentials(token)}`;
}

/** Credentials for one remote URL; only an http(s) remote takes them. */
export interface PushAuth {
  url: string;
  token: string;
}

export function pushEnvironment(
  base: NodeJS.ProcessEnv,
  auth: PushAuth | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    const lowered = key.toLowerCase();
    if (value === undefined || lowered.startsWith("git_") || GUARDED.has(lowered)) continue;
    env[key] = value;
  }
  // A worker has no terminal: fail instead of waiting for a password.
  env["GIT_TERMINAL_PROMPT"] = "0";
  if (auth !== undefined && auth.token !== "" && /^https?:\/\//i.test(auth.url)) {
    const key = `http.${auth.url}.extraHeader`;
    env["GIT_CONFIG_COUNT"] = "2";
    env["GIT_CONFIG_KEY_0"] = key;
    env["GIT_CONFIG_VALUE_0"] = "";
    env["GIT_CONFIG_KEY_1"] = key;
    env["GIT_CONFIG_VALUE_1"] = basicAuthHeader(auth.token);
  }
  return env;
}

// `--porcelain` prints one line per ref: "!\t<src>:<dst>\t[rejected] (stale info)".
const REJECTED = /^!\t[^\t]*\t\[rejected\]\s*(?:\((.*)\))?/m;
// The server checks the old value too (a race between git's read and its update).
const REMOTE_RACE =
  /^!\t[^\t]*\t\[remote rejected\]\s*\((.*(?:cannot lock ref|incorrect old value|but expected|stale).*)\)/im;

export async function pushBranch(
  target: PushTarget,
  branch: string,
  update: { sha: string; expectedOld: string | null },
): Promise<void> {
  validatePush(branch, update);
  if (target.pushWorkflows !== true) await refuseWorkflowChanges(target, branch, update);
  const ref = `refs/heads/${branch}`;
  const token = target.token;
  const auth =
    token === undefined || token === ""
      ? undefined
      : { url: await pushUrl(target, update.sha), token };
  const git = simpleGit({
    baseDir: target.repoDir,
    allowEnvironment: [...PUSH_VARIABLES],
    unsafe: { allowUnsafeConfigEnvCount: true },
  }).env(pushEnvironment(target.env ?? process.env, auth));
  const args = [
    "push",
    "--porcelain",
    // The bot's push runs no hooks from the clone.
    "--no-verify",
    `--force-with-lease=${ref}:${update.expectedOld ?? ""}`,
    target.remote,
    `${update.sha}:${ref}`,
  ];
  try {
    await git.raw(args);
  } catch (error) {
    const output = target.redact(messageOf(error));
    if (WORKFLOWS_REFUSED.test(output)) {
      throw pushFailure(
        error,
        output,
        `GitHub refused to push ${update.sha.slice(0, 7)} to ${branch}: it changes a workflow file and the token lacks the Workflows permission; give the app "Workflows: Read and write", or set pushWorkflows: false in .github/cfa.yml so such changes are held back`,
      );
    }
    const rejected = REJECTED.exec(output) ?? REMOTE_RACE.exec(output);
    if (rejected) {
      target.logger.info("cfa/github: push refused, the branch moved", {
        branch,
        sha: update.sha,
        expectedOld: update.expectedOld,
      });
      throw new PushRejectedError({
        branch,
        sha: update.sha,
        expectedOld: update.expectedOld,
        detail: rejected[1] ?? "rejected",
      });
    }
    throw pushFailure(
      error,
      output,
      `git push of ${update.sha.slice(0, 7)} to ${target.remote} ${branch} failed: ${output.trim()}; check the remote, the token's contents permission and that the commit exists in ${target.repoDir}`,
    );
  }
  target.logger.info("cfa/github: pushed branch", {
    branch,
    sha: update.sha,
    expectedOld: update.expectedOld,
  });
}

/**
 * Deletes a branch on the remote with a lease naming the commit it must still be at: a
 * person's push meanwhile is refused (PushRejectedError), never deleted with the branch. The
 * REST API's delete-a-reference takes no expected value, so this goes through git as pushes
 * do. A branch already gone is done.
 */
export async function deleteRemoteBranch(
  target: PushTarget,
  branch: string,
  expected: string,
): Promise<void> {
  validatePush(branch, { sha: expected, expectedOld: expected });
  const ref = `refs/heads/${branch}`;
  const token = target.token;
  const auth =
    token === undefined || token === ""
      ? undefined
      : { url: await pushUrl(target, expected), token };
  const git = simpleGit({
    baseDir: target.repoDir,
    allowEnvironment: [...PUSH_VARIABLES],
    unsafe: { allowUnsafeConfigEnvCount: true },
  }).env(pushEnvironment(target.env ?? process.env, auth));
  try {
    await git.raw([
      "push",
      "--porcelain",
      "--no-verify",
      `--force-with-lease=${ref}:${expected}`,
      target.remote,
      `:${ref}`,
    ]);
  } catch (error) {
    const output = target.redact(messageOf(error));
    // git's words for a ref the remote does not have: nothing left to delete.
    if (/remote ref does not exist|unable to delete .*: remote ref/i.test(output)) return;
    const rejected = REJECTED.exec(output) ?? REMOTE_RACE.exec(output);
    if (rejected) {
      // git checks a lease on a branch the remote no longer has as "stale" too: gone is done.
      const now = await git.raw(["ls-remote", "--heads", target.remote, ref]).catch(() => "?");
      if (now.trim() === "") return;
      throw new PushRejectedError({
        branch,
        sha: "0".repeat(40),
        expectedOld: expected,
        detail: rejected[1] ?? "rejected",
      });
    }
    throw pushFailure(
      error,
      output,
      `deleting ${branch} on ${target.remote} (expected at ${expected.slice(0, 7)}) failed: ${output.trim()}`,
    );
  }
  target.logger.info("cfa/github: deleted branch", { branch, expected });
}

/**
 * The branch as the remote holds it now: fetched into `refs/remotes/<remote>/<branch>` (the
 * job branch itself is checked out in a worktree and cannot be fetched into), its commit, or
 * null when the remote has no such branch.
 */
export async function fetchRemoteBranch(
  target: PushTarget,
  branch: string,
): Promise<string | null> {
  const token = target.token;
  const auth =
    token === undefined || token === ""
      ? undefined
      : { url: await pushUrl(target, "0000000"), token };
  const git = simpleGit({
    baseDir: target.repoDir,
    allowEnvironment: [...PUSH_VARIABLES],
    unsafe: { allowUnsafeConfigEnvCount: true },
  }).env(pushEnvironment(target.env ?? process.env, auth));
  const tracking = `refs/remotes/${target.remote}/${branch}`;
  let listed: string;
  try {
    listed = await git.raw(["ls-remote", "--heads", target.remote, `refs/heads/${branch}`]);
  } catch (error) {
    const output = target.redact(messageOf(error));
    throw pushFailure(error, output, `cannot read ${branch} on ${target.remote}: ${output.trim()}`);
  }
  const sha = listed.split("\t")[0]?.trim() ?? "";
  if (!/^[0-9a-f]{40}$/.test(sha)) return null;
  try {
    await git.raw([
      "fetch",
      "--no-tags",
      "--quiet",
      target.remote,
      `+refs/heads/${branch}:${tracking}`,
    ]);
  } catch (error) {
    const output = target.redact(messageOf(error));
    throw pushFailure(
      error,
      output,
      `cannot fetch ${branch} from ${target.remote}: ${output.trim()}`,
    );
  }
  return sha;
}

// GitHub's words: "refusing to allow a GitHub App to create or update workflow `…` without
// `workflows` permission" (the OAuth form says "… an OAuth App … without `workflow` scope").
const WORKFLOWS_REFUSED =
  /refusing to allow an? (?:GitHub|OAuth) App to create or update workflow/i;

/**
 * The commits this push brings to GitHub (not on the old branch, not on any branch git knows
 * GitHub has) must not touch `.github/workflows/`; one `git log` lists what they change.
 */
async function refuseWorkflowChanges(
  target: PushTarget,
  branch: string,
  update: { sha: string; expectedOld: string | null },
): Promise<void> {
  const git = simpleGit({ baseDir: target.repoDir });
  let listed: string;
  try {
    listed = await git.raw([
      "log",
      "--format=",
      "--name-only",
      "--no-renames",
      "-m",
      "--first-parent",
      update.sha,
      "--not",
      "--remotes",
      ...(update.expectedOld === null ? [] : [update.expectedOld]),
    ]);
  } catch (error) {
    throw pushFailure(
      error,
      target.redact(messageOf(error)),
      `cannot read the commits of ${update.sha.slice(0, 7)} in ${target.repoDir}: ${target.redact(messageOf(error)).trim()}`,
    );
  }
  const touched = [...new Set(listed.split("\n").filter(isWorkflowFile))].sort();
  if (touched.length === 0) return;
  throw new WorkflowPushError(branch, update.sha, touched);
}

/** `.github/workflows` or under it, case-folded (engine/tree/workflow-files.ts isWorkflowPath). */
function isWorkflowFile(path: string): boolean {
  const parts = path.trim().split("/");
  return parts[0]?.toLowerCase() === ".github" && parts[1]?.toLowerCase() === "workflows";
}

/** The URL `git push <remote>` will use, after pushurl and insteadOf rewriting. */
async function pushUrl(target: PushTarget, sha: string): Promise<string> {
  try {
    const url = await simpleGit({ baseDir: target.repoDir }).raw([
      "remote",
      "get-url",
      "--push",
      target.remote,
    ]);
    return url.trim();
  } catch (error) {
    throw pushFailure(
      error,
      target.redact(messageOf(error)),
      `cannot push ${sha.slice(0, 7)}: the clone in ${target.repoDir} has no remote ${JSON.stringify(target.remote)}; add it or pass the right \`remote\``,
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pushFailure(error: unknown, redacted: string, message: string): GitHubForgeError {
  const cause = new Error(redacted);
  cause.name = error instanceof Error ? error.name : "Error";
  cause.stack = `${cause.name}: ${redacted}`;
  return new GitHubForgeError(`cfa/github: ${message}`, { operation: "git push", cause });
}
