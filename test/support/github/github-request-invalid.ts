// The one error the GitHub test kit throws for a request GitHub would reject (or that no
// operation in the subset describes). It names the operation so a failing test says which
// Octokit call to look at.

export class GitHubRequestInvalid extends Error {
  override readonly name = "GitHubRequestInvalid";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly operationId: string | undefined,
    readonly problems: readonly string[],
  ) {
    super(
      `cfa/testkit: ${method} ${path}` +
        (operationId === undefined ? "" : ` (${operationId})`) +
        ` is not a valid GitHub API request: ${problems.join("; ")}. ` +
        (operationId === undefined
          ? "Fix the route, or add its operationId to scripts/openapi-subset.ts and regenerate."
          : "Fix the call to match GitHub's OpenAPI description."),
    );
  }
}
