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
