// Publishing the job branch when the push is refused or its answer is lost (a lost race must not
// end the run), over real git: the GitHub forge pushes to a local bare repository that plays
// GitHub, and a second clone plays a person pushing to the job branch. Also git's own behaviour the
// leases rest on: an empty lease re-creates a deleted branch; a lease naming the commit does not.

import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  GitHubForgeError,
  PushRejectedError,
  createGitHubForge,
  type GitHubForge,
} from "../../../../src/adapters/github/index.js";
import type { Forge } from "../../../../src/ports/forge.js";
import type { Logger } from "../../../../src/ports/logger.js";
import {
  publishJobBranch,
  PushStalledError,
  type Publisher,
} from "../../../../src/engine/job/publish-job-branch.js";
import { JobRepo } from "../../../../src/engine/tree/job-repo.js";

const BRANCH = "cfa/1";
const STATE = ".cfa/jobs/1/state.json";
const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let root: string;
let work: string;
let bare: string;
let person: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

async function write(dir: string, path: string, text: string) {
  await mkdir(join(dir, path, ".."), { recursive: true });
  await writeFile(join(dir, path), text);
}

function commitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

function forgeFor(): GitHubForge {
  return createGitHubForge({
    octokit: new Octokit(),
    owner: "octo-org",
    repo: "hello-world",
    botLogin: "cfa-bot[bot]",
    repoDir: work,
    logger: quiet,
  });
}

function publisher(forge: Forge, pushedHead: string): Publisher & { notes: string[] } {
  const notes: string[] = [];
  return {
    n: 1,
    branch: BRANCH,
    repo: new JobRepo(work, undefined, join(work, ".git")),
    forge,
    pushedHead,
    notes,
    note: (event, detail) => notes.push(`${event} ${detail}`),
  };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-publish-"));
  work = join(root, "work");
  bare = join(root, "remote.git");
  person = join(root, "person");
  git(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  git(root, "init", "--quiet", "--initial-branch=cfa/1", work);
  for (const dir of [work]) {
    git(dir, "config", "user.name", "cfa test");
    git(dir, "config", "user.email", "cfa@example.com");
  }
  git(work, "remote", "add", "origin", bare);
  await write(work, "README.md", "hello\n");
  await write(work, STATE, '{"state":"PLAN"}\n');
  commitAll(work, "start");
  git(work, "push", "--quiet", "origin", `HEAD:refs/heads/${BRANCH}`);
  git(root, "clone", "--quiet", "--branch", BRANCH, bare, person);
  git(person, "config", "user.name", "a person");
  git(person, "config", "user.email", "person@example.com");
});

afterEach(async () => rm(root, { recursive: true, force: true }));

const remoteHead = () => git(bare, "rev-parse", `refs/heads/${BRANCH}`);

describe("publishing the job branch", () => {
  it("a push that landed but whose answer was lost is counted done, not pushed again", async () => {
    const base = remoteHead();
    await write(work, STATE, '{"state":"EXECUTE"}\n');
    const ours = commitAll(work, "turn");
    const real = forgeFor();
    let pushes = 0;
    // The push reaches the remote; the answer does not (as a dropped connection looks).
    const lossy: Forge = Object.assign(Object.create(real) as Forge, {
      async pushBranch(branch: string, update: { sha: string; expectedOld: string | null }) {
        pushes += 1;
        await real.pushBranch(branch, update);
        if (pushes === 1)
          throw new GitHubForgeError("cfa/github: git push failed: the remote end hung up", {
            operation: "git push",
          });
      },
    });
    const p = publisher(lossy, base);
    await publishJobBranch(p, ours);
    expect(remoteHead()).toBe(ours);
    expect(p.pushedHead).toBe(ours);
    expect(pushes).toBe(1);
    expect(p.notes.join("\n")).toContain("counted done");
  });

  it("a commit published after a later one went out is not pushed (no rewind), though made on the head pushed before", async () => {
    const base = remoteHead();
    const p = publisher(forgeFor(), base);
    await write(work, "one.txt", "1\n");
    const older = (await p.repo.commit("turn 1"))!;
    await write(work, "two.txt", "2\n");
    const newer = (await p.repo.commit("turn 2"))!;
    // The usual case first: made on the head pushed, published without asking git.
    expect(p.repo.parentOf(older)).toBe(base);
    await publishJobBranch(p, newer);
    expect(remoteHead()).toBe(newer);
    await publishJobBranch(p, older);
    expect(remoteHead()).toBe(newer);
    expect(p.pushedHead).toBe(newer);
  });

  it("a push racing a person's commit takes theirs in (the records stay the engine's) and pushes again with a lease naming their head", async () => {
    const base = remoteHead();
    // The person pushes a file and, hostile, an edit to the engine's record.
    await write(person, "person.txt", "mine\n");
    await write(person, STATE, '{"state":"DONE"}\n');
    const theirs = commitAll(person, "a person's commit");
    git(person, "push", "--quiet", "origin", BRANCH);
    await write(work, STATE, '{"state":"EXECUTE"}\n');
    const ours = commitAll(work, "turn");

    const p = publisher(forgeFor(), base);
    await publishJobBranch(p, ours);

    const head = remoteHead();
    expect(p.pushedHead).toBe(head);
    expect(git(work, "rev-parse", "HEAD")).toBe(head);
    expect(git(bare, "log", "-1", "--format=%P", head).split(" ")).toEqual([ours, theirs]);
    expect(git(bare, "show", `${head}:person.txt`)).toBe("mine");
    expect(git(bare, "show", `${head}:${STATE}`)).toBe('{"state":"EXECUTE"}');
    // The worktree has their file too: the next commit does not revert it.
    expect(await readFile(join(work, "person.txt"), "utf8")).toBe("mine\n");
    expect(p.notes.join("\n")).toContain("TAKE-IN");
  });

  it("a person's commit that conflicts outside .cfa/ stalls the push (an infrastructure wait) and overwrites nothing", async () => {
    const base = remoteHead();
    await write(person, "README.md", "theirs\n");
    const theirs = commitAll(person, "a person's edit");
    git(person, "push", "--quiet", "origin", BRANCH);
    await write(work, "README.md", "ours\n");
    const ours = commitAll(work, "lead turn");
    const error = await publishJobBranch(publisher(forgeFor(), base), ours).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PushStalledError);
    expect(remoteHead()).toBe(theirs);
  });
});

describe("leases on branches: git's behaviour they rest on", () => {
  it("control: an empty lease re-creates a branch someone deleted", () => {
    const sha = remoteHead();
    git(work, "push", "--quiet", "origin", `:refs/heads/${BRANCH}`);
    git(
      work,
      "push",
      "--quiet",
      `--force-with-lease=refs/heads/${BRANCH}:`,
      "origin",
      `${sha}:refs/heads/${BRANCH}`,
    );
    expect(remoteHead()).toBe(sha);
  });

  it("a lease naming the commit does not re-create it: the push is refused", async () => {
    const sha = remoteHead();
    git(work, "push", "--quiet", "origin", `:refs/heads/${BRANCH}`);
    const error = await forgeFor()
      .pushBranch(BRANCH, { sha, expectedOld: sha })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushRejectedError);
    expect(() => git(bare, "rev-parse", "--verify", "--quiet", `refs/heads/${BRANCH}`)).toThrow();
  });

  it("deleting with a lease: refused when a person pushed meanwhile (their commit survives), done when already gone", async () => {
    const sha = remoteHead();
    await write(person, "person.txt", "mine\n");
    const theirs = commitAll(person, "a person's commit");
    git(person, "push", "--quiet", "origin", BRANCH);
    const forge = forgeFor();
    await expect(forge.deleteBranch(BRANCH, sha)).rejects.toBeInstanceOf(PushRejectedError);
    expect(remoteHead()).toBe(theirs);
    await forge.deleteBranch(BRANCH, theirs);
    expect(() => git(bare, "rev-parse", "--verify", "--quiet", `refs/heads/${BRANCH}`)).toThrow();
    await forge.deleteBranch(BRANCH, theirs);
  });
});
