// pushBranch against real git: a local bare repository plays GitHub's part for the
// compare-and-swap, and a loopback HTTP server stands in for GitHub's https endpoint to
// see which Authorization header git sends (it answers 403, so nothing is pushed there).

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { simpleGit, type SimpleGit } from "simple-git";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  GitHubForgeError,
  InvalidPushError,
  PushRejectedError,
  WorkflowPushError,
  basicCredentials,
  createGitHubForge,
  type GitHubForge,
} from "../../../../src/adapters/github/index.js";
import type { Logger } from "../../../../src/ports/logger.js";
import { refuseWorkflowPushes } from "../../../support/github/index.js";
import { git as gitIn, makeTempRepo, removeDir } from "../../../support/git/temp-repo.js";

const TOKEN = "ghs_pushTokenThatMustNeverLeak0123456789";
const BRANCH = "cfa/1";
const TESTER = { name: "cfa test", email: "cfa@example.com" };

interface World {
  root: string;
  work: string;
  bare: string;
  git: SimpleGit;
  commits: string[];
  logged: string[];
}

let world: World;

async function commit(git: SimpleGit, message: string): Promise<string> {
  await git.raw(["commit", "--allow-empty", "--message", message]);
  return (await git.revparse(["HEAD"])).trim();
}

async function remoteBranch(bare: string): Promise<string | null> {
  const out = await simpleGit(bare).raw([
    "for-each-ref",
    "--format=%(objectname)",
    `refs/heads/${BRANCH}`,
  ]);
  return out.trim() === "" ? null : out.trim();
}

function forgeFor(
  options: {
    remote?: string;
    token?: string | (() => Promise<string>);
    pushWorkflows?: () => boolean;
  } = {},
): GitHubForge {
  const logger: Logger = {
    debug: (m, f) => world.logged.push(`${m} ${JSON.stringify(f)}`),
    info: (m, f) => world.logged.push(`${m} ${JSON.stringify(f)}`),
    warn: (m, f) => world.logged.push(`${m} ${JSON.stringify(f)}`),
    error: (m, f) => world.logged.push(`${m} ${JSON.stringify(f)}`),
  };
  return createGitHubForge({
    octokit: new Octokit(),
    owner: "octo-org",
    repo: "hello-world",
    botLogin: "cfa-bot[bot]",
    repoDir: world.work,
    logger,
    ...options,
  });
}

/** Every string an error exposes: message, stack, cause, and its enumerable fields. */
function everythingIn(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error) {
    parts.push(current.message, current.stack ?? "", JSON.stringify({ ...current }));
    current = current.cause;
  }
  return parts.join("\n");
}

function expectNoToken(text: string): void {
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(basicCredentials(TOKEN));
}

beforeEach(async () => {
  const temp = makeTempRepo({
    prefix: "cfa-github-push-",
    at: "work",
    empty: true,
    identity: TESTER,
  });
  const { root, repo: work } = temp;
  const bare = join(root, "remote.git");
  gitIn(root, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  temp.git("remote", "add", "origin", bare);
  const git = simpleGit(work);
  const commits = [await commit(git, "one"), await commit(git, "two"), await commit(git, "three")];
  world = { root, work, bare, git, commits, logged: [] };
});

afterEach(() => removeDir(world.root));

describe("pushBranch: compare-and-swap on the remote branch", () => {
  it("creates, advances, and refuses a stale expectation without touching the remote", async () => {
    const [one, two, three] = world.commits as [string, string, string];
    const forge = forgeFor({ token: TOKEN });

    await forge.pushBranch(BRANCH, { sha: one, expectedOld: null });
    expect(await remoteBranch(world.bare)).toBe(one);

    await forge.pushBranch(BRANCH, { sha: two, expectedOld: one });
    expect(await remoteBranch(world.bare)).toBe(two);

    const stale = await forge
      .pushBranch(BRANCH, { sha: three, expectedOld: one })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(PushRejectedError);
    expect(stale).toMatchObject({
      name: "PushRejectedError",
      branch: BRANCH,
      sha: three,
      expectedOld: one,
    });
    expect((stale as Error).message).toMatch(
      /^cfa\/github: .*stale info.*re-read the branch and retry/,
    );
    expect(await remoteBranch(world.bare)).toBe(two);

    // "Must not exist" when it does is the same refusal.
    await expect(
      forge.pushBranch(BRANCH, { sha: three, expectedOld: null }),
    ).rejects.toBeInstanceOf(PushRejectedError);
    expect(await remoteBranch(world.bare)).toBe(two);

    // A rewind is allowed when the expectation holds: compare-and-swap, not fast-forward-only.
    await forge.pushBranch(BRANCH, { sha: one, expectedOld: two });
    expect(await remoteBranch(world.bare)).toBe(one);

    expectNoToken(everythingIn(stale));
    expectNoToken(world.logged.join("\n"));
    expectNoToken(await readFile(join(world.work, ".git", "config"), "utf8"));
    expectNoToken(await readFile(join(world.bare, "config"), "utf8"));
  });

  it("accepts a retry of a push that already landed when the expectation is the new commit", async () => {
    const [one] = world.commits as [string];
    const forge = forgeFor();
    await forge.pushBranch(BRANCH, { sha: one, expectedOld: null });

    await forge.pushBranch(BRANCH, { sha: one, expectedOld: one });

    expect(await remoteBranch(world.bare)).toBe(one);
  });

  it("reports a commit missing from the clone as a GitHubForgeError, not a rejection", async () => {
    const missing = "0123456789abcdef0123456789abcdef01234567";
    const error = await forgeFor({ token: TOKEN })
      .pushBranch(BRANCH, { sha: missing, expectedOld: null })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(GitHubForgeError);
    expect(error).toMatchObject({ operation: "git push", status: undefined });
    expectNoToken(everythingIn(error));
    expect(await remoteBranch(world.bare)).toBeNull();
  });

  it("refuses, before git sends anything, commits that change .github/workflows/ (GitHub would refuse the push)", async () => {
    const [one] = world.commits as [string];
    await mkdir(join(world.work, ".github", "workflows"), { recursive: true });
    await writeFile(join(world.work, ".github", "workflows", "ci.yml"), "on: push\n");
    await world.git.raw(["add", "-A"]);
    const workflow = await commit(world.git, "add a workflow");
    const forge = forgeFor({ token: TOKEN });
    await forge.pushBranch(BRANCH, { sha: one, expectedOld: null });

    const error = await forge
      .pushBranch(BRANCH, { sha: workflow, expectedOld: one })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(WorkflowPushError);
    expect(error).toMatchObject({ paths: [".github/workflows/ci.yml"], branch: BRANCH });
    expect((error as Error).message).toMatch(/Workflows permission.*pushWorkflows: true/);
    expect(await remoteBranch(world.bare)).toBe(one);
  });

  it("with pushWorkflows the push goes, and GitHub's refusal names the permission it lacks", async () => {
    const [one] = world.commits as [string];
    await refuseWorkflowPushes(world.bare);
    await mkdir(join(world.work, ".github", "workflows"), { recursive: true });
    await writeFile(join(world.work, ".github", "workflows", "ci.yml"), "on: push\n");
    await world.git.raw(["add", "-A"]);
    const workflow = await commit(world.git, "add a workflow");
    const forge = forgeFor({ token: TOKEN, pushWorkflows: () => true });
    await forge.pushBranch(BRANCH, { sha: one, expectedOld: null });

    const error = await forge
      .pushBranch(BRANCH, { sha: workflow, expectedOld: one })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(GitHubForgeError);
    expect(error).not.toBeInstanceOf(PushRejectedError);
    expect((error as Error).message).toMatch(
      /GitHub refused to push .* it changes a workflow file and the token lacks the Workflows permission/,
    );
    expect(await remoteBranch(world.bare)).toBe(one);
  });

  it("refuses a branch name git could read as an option before running git", async () => {
    const [one] = world.commits as [string];
    await expect(
      forgeFor().pushBranch("--receive-pack=touch /tmp/x", { sha: one, expectedOld: null }),
    ).rejects.toBeInstanceOf(InvalidPushError);
  });
});

describe("pushBranch: the token", () => {
  let server: Server;
  /** Per request, every Authorization header git sent (Node would keep only the first). */
  let seen: string[][];

  beforeEach(async () => {
    seen = [];
    server = createServer((request, response) => {
      seen.push(
        request.rawHeaders.filter(
          (_value, index, raw) =>
            index % 2 === 1 && raw[index - 1]?.toLowerCase() === "authorization",
        ),
      );
      // git prints the body as "remote: ...": echo the credentials to prove they are redacted.
      const credentials = (request.headers.authorization ?? "").replace(/^basic /, "");
      const decoded = Buffer.from(credentials, "base64").toString("utf8");
      response.writeHead(403, { "content-type": "text/plain" });
      response.end(`denied: Authorization: ${request.headers.authorization ?? "none"} ${decoded}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await world.git.addRemote("github", `http://127.0.0.1:${port}/octo-org/hello-world.git`);
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("is sent as a basic Authorization header, and appears in no error, log or config", async () => {
    const [one] = world.commits as [string];

    const error = await forgeFor({ remote: "github", token: TOKEN })
      .pushBranch(BRANCH, { sha: one, expectedOld: null })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(GitHubForgeError);
    expect(error).not.toBeInstanceOf(PushRejectedError);
    expect((error as Error).message).toMatch(
      /^cfa\/github: git push of .* to github cfa\/1 failed: remote: denied.*403/s,
    );
    expect((error as Error).message).toContain("[redacted]");
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(seen.map(() => [`basic ${basicCredentials(TOKEN)}`]));
    expectNoToken(everythingIn(error));
    expectNoToken(world.logged.join("\n"));
    expectNoToken(await readFile(join(world.work, ".git", "config"), "utf8"));
  });

  it("replaces, not joins, a header the clone already carries (as actions/checkout leaves one)", async () => {
    const [one] = world.commits as [string];
    const { port } = server.address() as AddressInfo;
    await world.git.addConfig(
      `http.http://127.0.0.1:${port}/.extraheader`,
      "AUTHORIZATION: basic Y2hlY2tvdXQtdG9rZW4=",
    );

    await expect(
      forgeFor({ remote: "github", token: TOKEN }).pushBranch(BRANCH, {
        sha: one,
        expectedOld: null,
      }),
    ).rejects.toBeInstanceOf(GitHubForgeError);

    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(seen.map(() => [`basic ${basicCredentials(TOKEN)}`]));
  });

  it("is not sent when none was given", async () => {
    const [one] = world.commits as [string];

    await expect(
      forgeFor({ remote: "github" }).pushBranch(BRANCH, { sha: one, expectedOld: null }),
    ).rejects.toBeInstanceOf(GitHubForgeError);

    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual(seen.map(() => []));
  });

  it("a token given as a function is asked for before every push: each push sends the newest, none leaks", async () => {
    const [one, two] = world.commits as [string, string];
    const minted = [TOKEN, `${TOKEN}Renewed`];
    let asked = 0;
    const forge = forgeFor({ remote: "github", token: async () => minted[asked++]! });

    await expect(forge.pushBranch(BRANCH, { sha: one, expectedOld: null })).rejects.toThrow();
    const first = seen.length;
    const error = await forge
      .pushBranch(BRANCH, { sha: two, expectedOld: null })
      .catch((caught: unknown) => caught);

    expect(asked).toBe(2);
    expect(seen.slice(0, first)).toEqual(
      seen.slice(0, first).map(() => [`basic ${basicCredentials(minted[0]!)}`]),
    );
    expect(seen.slice(first)).toEqual(
      seen.slice(first).map(() => [`basic ${basicCredentials(minted[1]!)}`]),
    );
    // The server echoes the credentials it got: the new token, too, comes back redacted.
    const text = everythingIn(error);
    expect(text).toContain("[redacted]");
    expect(text).not.toContain(minted[1]);
    expect(text).not.toContain(basicCredentials(minted[1]!));
  });
});
