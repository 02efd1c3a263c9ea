// A push whose installation token GitHub stopped taking before its hour was out (revoked,
// or the app's permissions changed): git over HTTP to `git http-backend`, which answers 401
// to any token but the current one, as GitHub does. The forge drops the token, asks for a
// new one and pushes once more; without a way to drop it, the refusal stands.

import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import { GitHubForgeError, createGitHubForge } from "../../../../src/adapters/github/index.js";
import { startGitHttpServer, type GitHttpServer } from "../../../support/github/git-http-server.js";
import { git, makeTempRepo, removeDir } from "../../../support/git/temp-repo.js";

const REVOKED = "ghs_revokedBeforeItsHour000000000000";
const FRESH = "ghs_mintedAfterTheRefusal00000000000";

/** The forge of octo-org/hello-world whose git side is the clone in `work`. */
const forgeIn = (
  work: string,
  options: Pick<Parameters<typeof createGitHubForge>[0], "token" | "forgetToken" | "logger">,
) =>
  createGitHubForge({
    octokit: new Octokit(),
    owner: "octo-org",
    repo: "hello-world",
    botLogin: "cfa-bot[bot]",
    repoDir: work,
    ...options,
  });

describe("a push GitHub refuses for its token", () => {
  let root: string;
  let server: GitHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    removeDir(root);
  });

  const world = async () => {
    const temp = makeTempRepo({
      prefix: "cfa-push-token-",
      at: "work",
      files: { "a.txt": "a\n" },
      identity: { name: "cfa test", email: "cfa@example.com" },
    });
    ({ root } = temp);
    const work = temp.repo;
    git(root, "init", "--quiet", "--bare", "--initial-branch=main", join(root, "gh.git"));
    const sha = temp.git("rev-parse", "HEAD");
    server = await startGitHttpServer({ root, accepts: (token) => token === FRESH });
    temp.git("remote", "add", "origin", `${server.url}/gh.git`);
    return { work, sha, server };
  };

  it("is tried once more with a new token, which GitHub takes", async () => {
    const { work, sha, server } = await world();
    let current = REVOKED;
    const logged: string[] = [];
    const forge = forgeIn(work, {
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
    expect(git(join(root, "gh.git"), "rev-parse", "cfa/1")).toBe(sha);
    expect(logged).toContain(
      "cfa/github: GitHub refused the token for git push; minting a new one",
    );
    expect(logged.join("\n")).not.toContain(REVOKED);
  });

  it("stands when the token cannot be replaced (the workflow's own)", async () => {
    const { work, sha } = await world();
    const forge = forgeIn(work, { token: REVOKED });

    const error = await forge
      .pushBranch("cfa/1", { sha, expectedOld: null })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubForgeError);
    expect(String((error as Error).message)).not.toContain(REVOKED);
  });
});
