import { describe, expect, it } from "vitest";
import { mapPermission } from "../../../../src/adapters/github/index.js";
import type { Permission } from "../../../../src/ports/forge.js";
import { nockGitHub, useGitHubMocks } from "../../../support/github/index.js";
import {
  R,
  collaboratorPermission,
  issue,
  notFound,
  testForge,
} from "../../../support/github/github-shapes.js";

// GitHub's answer (legacy `permission`, fine-grained `role_name`) → the port's Permission.
const TABLE: [permission: string, roleName: string, expected: Permission][] = [
  ["admin", "admin", "admin"],
  // maintain and triage have no legacy level of their own: GitHub reports write and read.
  ["write", "maintain", "maintain"],
  ["write", "write", "write"],
  ["read", "triage", "triage"],
  ["read", "read", "read"],
  ["none", "none", "none"],
  // A custom repository role is named by the organisation; its base level decides.
  ["write", "security-engineer", "write"],
  ["read", "auditor", "read"],
  ["gibberish", "also-gibberish", "none"],
];

describe("GitHub forge: permission (live, from the collaborator permission API)", () => {
  const github = useGitHubMocks();

  it.each(TABLE)("permission %s with role %s is %s", async (permission, roleName, expected) => {
    nockGitHub()
      .get(`${R}/collaborators/someone/permission`)
      .reply(200, collaboratorPermission(permission, roleName, "someone"));

    await expect(testForge().permission("someone")).resolves.toBe(expected);
    expect(github.operations()).toEqual(["repos/get-collaborator-permission-level"]);
  });

  it("404 (not a collaborator, or no such user) is none", async () => {
    nockGitHub()
      .get(`${R}/collaborators/drive-by/permission`)
      .reply(404, notFound("https://docs.github.com/rest/collaborators/collaborators"));

    await expect(testForge().permission("drive-by")).resolves.toBe("none");
  });

  it("a bot login is asked about like anyone else (percent-encoded)", async () => {
    nockGitHub().get(`${R}/collaborators/dependabot%5Bbot%5D/permission`).reply(404, notFound());

    await expect(testForge().permission("dependabot[bot]")).resolves.toBe("none");
  });

  it("any other failure is an error, never a guess", async () => {
    nockGitHub()
      .get(`${R}/collaborators/octocat/permission`)
      .reply(500, { message: "Server Error" });

    await expect(testForge().permission("octocat")).rejects.toMatchObject({
      name: "GitHubForgeError",
      status: 500,
      operation: "repos.getCollaboratorPermissionLevel",
    });
  });

  it("never reads author_association: an OWNER association grants nothing by itself", async () => {
    nockGitHub()
      .get(`${R}/issues/1`)
      .reply(200, issue(1, { author_association: "OWNER" }))
      .get(`${R}/collaborators/octocat/permission`)
      .reply(200, collaboratorPermission("read", "read"));
    const forge = testForge();

    const author = (await forge.getIssue(1)).author.login;

    await expect(forge.permission(author)).resolves.toBe("read");
  });
});

describe("mapPermission", () => {
  it("is case-insensitive and tolerates a missing role_name", () => {
    expect(mapPermission({ permission: "WRITE", role_name: "Maintain" })).toBe("maintain");
    expect(mapPermission({ permission: "admin" })).toBe("admin");
    expect(mapPermission({ permission: "read", role_name: null })).toBe("read");
  });
});
