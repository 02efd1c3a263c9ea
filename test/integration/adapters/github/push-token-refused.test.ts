// A push whose installation token GitHub stopped taking before its hour was out (revoked,
// or the app's permissions changed): git over HTTP to `git http-backend`, which answers 401
// to any token but the current one, as GitHub does. The forge drops the token, asks for a
// new one and pushes once more; without a way to drop it, the refusal stands.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { simpleGit } from "simple-git";
import { afterEach, describe, expect, it } from "vitest";
import { GitHubForgeError, createGitHubForge } from "../../../../src/adapters/github/index.js";
import { startGitHttpServer, type GitHttpServer } from "../../../support/github/git-http-server.js";

const REVOKED = "ghs_revokedBeforeItsHour000000000000";
const FRESH = "ghs_mintedAfterTheRefusal00000000000";

describe("a push GitHub refuses for its token", () => {
  let root: string;
  let server: GitHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  const world = async () => {
    root = await mkdtemp(join(tmpdir(), "cfa-push-token-"));
    const work = join(root, "work");
    await simpleGit(root).raw(["init", "--bare", "--initial-branch=main", join(root, "gh.git")]);
    await simpleGit(root).raw(["init", "--initial-branch=main", work]);
    const git = simpleGit(work);
    await git.addConfig("user.name", "cfa test");
    await git.addConfig("user.email", "cfa@example.com");
    await writeFile(join(work, "a.txt"), "a\n");
    await git.add("a.txt");
    await git.commit("one");
    const sha = (await git.revparse(["HEAD"])).trim();
    server = await startGitHttpServer({ root, accepts: (token) => token === FRESH });
    await git.addRemote("origin", `${server.url}/gh.git`);
    return { work, sha, server };
  };

  it("is tried once more with a new token, which GitHub takes", async () => {
    const { work, sha, server } = await world();
    let current = REVOKED;
    const logged: string[] = [];
    const forge = createGitHubForge({
      octokit: new Octokit(),
      owner: "octo-org",
      repo: "hello-world",
      botLogin: "cfa-bot[bot]",
      repoDir: work,
      token: async () => current,
      forgetToken: () => {
        current = FRESH;
      },
      logger: {
        debug: () => undefined,
        info: (m) => logged.push(m),
        warn: (m) => logged.push(m),
        error: (m) => logged.push(m),
      },
    });

    await forge.pushBranch("cfa/1", { sha, expectedOld: null });

    const pushes = server.requests.filter((r) => r.service === "git-receive-pack");
    expect(pushes.map((p) => [p.token, p.status])).toEqual([
      [REVOKED, 401],
      [FRESH, 200],
      [FRESH, 200],
    ]);
    const remote = await simpleGit(join(root, "gh.git")).raw(["rev-parse", "cfa/1"]);
    expect(remote.trim()).toBe(sha);
    expect(logged).toContain(
      "cfa/github: GitHub refused the token for git push; minting a new one",
    );
    expect(logged.join("\n")).not.toContain(REVOKED);
  });

  it("stands when the token cannot be replaced (the workflow's own)", async () => {
    const { work, sha } = await world();
    const forge = createGitHubForge({
      octokit: new Octokit(),
      owner: "octo-org",
      repo: "hello-world",
      botLogin: "cfa-bot[bot]",
      repoDir: work,
      token: REVOKED,
    });

    const error = await forge
      .pushBranch("cfa/1", { sha, expectedOld: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubForgeError);
    expect(String((error as Error).message)).not.toContain(REVOKED);
  });
});
