import { describe, expect, it } from "vitest";
import { GitHubForgeError } from "../../../../src/adapters/github/index.js";
import { nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  R,
  contentFile,
  notFound,
  repository,
  testForge,
} from "../../../support/github/github-shapes.js";

describe("GitHub forge: default branch, branch deletion, config", () => {
  const github = useGitHubMocks();

  it("reads the default branch once per adapter", async () => {
    nockGitHub().get(R).reply(200, repository("trunk"));
    const forge = testForge();

    await expect(forge.defaultBranch()).resolves.toBe("trunk");
    await expect(forge.defaultBranch()).resolves.toBe("trunk");

    expect(forge.apiCalls()).toBe(1);
    expect(github.operations()).toEqual(["repos/get"]);
  });

  it("deletes a branch through the git refs API", async () => {
    nockGitHub().delete(`${R}/git/refs/heads%2Fcfa%2F1-t2`).reply(204);

    await testForge().deleteBranch("cfa/1-t2");

    expect(github.recorder().calls()).toEqual([
      {
        method: "DELETE",
        path: `${R}/git/refs/heads%2Fcfa%2F1-t2`,
        operationId: "git/delete-ref",
      },
    ]);
  });

  it("treats a branch that is already gone as deleted (404 or 422 'does not exist')", async () => {
    nockGitHub()
      .delete(`${R}/git/refs/heads%2Fcfa%2F1-t1`)
      .reply(404, notFound())
      .delete(`${R}/git/refs/heads%2Fcfa%2F1-t2`)
      .reply(422, {
        message: "Reference does not exist",
        documentation_url: "https://docs.github.com/rest/git/refs#delete-a-reference",
      });
    const forge = testForge();

    await forge.deleteBranch("cfa/1-t1");
    await forge.deleteBranch("cfa/1-t2");

    expect(forge.apiCalls()).toBe(2);
  });

  it("does not swallow any other refusal to delete", async () => {
    nockGitHub()
      .delete(`${R}/git/refs/heads%2Fmain`)
      .reply(422, { message: "Cannot delete a protected branch" });

    await expect(testForge().deleteBranch("main")).rejects.toMatchObject({
      name: "GitHubForgeError",
      status: 422,
      operation: "git.deleteRef",
    });
  });

  it("reads .github/cfa.yml from the default branch, decoding base64", async () => {
    const yaml = "label: cfa\ncaps:\n  turns: 200\n# ünïcödé survives\n";
    nockGitHub()
      .get(`${R}/contents/.github%2Fcfa.yml`)
      .reply(200, contentFile(".github/cfa.yml", yaml));

    await expect(testForge().readConfig()).resolves.toBe(yaml);
    // No `ref`: GitHub reads the default branch, saving a repos.get call.
    expect(github.recorder().requests()[0]?.query).toEqual({});
  });

  it("returns null when the repository has no config", async () => {
    nockGitHub().get(`${R}/contents/.github%2Fcfa.yml`).reply(404, notFound());

    await expect(testForge().readConfig()).resolves.toBeNull();
  });

  it("refuses a directory where the config file should be", async () => {
    nockGitHub()
      .get(`${R}/contents/.github%2Fcfa.yml`)
      .reply(200, [contentFile(".github/cfa.yml/a.yml", "x")]);

    const failure = await testForge()
      .readConfig()
      .catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(GitHubForgeError);
    expect((failure as Error).message).toMatch(/^cfa\/github: \.github\/cfa\.yml is not a file/);
  });
});
