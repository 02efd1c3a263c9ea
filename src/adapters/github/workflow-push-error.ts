// A push refused before it left: its commits change files under .github/workflows/, which
// GitHub accepts only from a token with the Workflows permission (engine/tree/workflow-files.ts).

export class WorkflowPushError extends Error {
  override readonly name = "WorkflowPushError";
  readonly operation = "git push";

  constructor(
    readonly branch: string,
    readonly sha: string,
    /** The workflow files the commits change. */
    readonly paths: readonly string[],
  ) {
    super(
      `cfa/github: not pushing ${sha.slice(0, 7)} to ${branch}: it changes ${paths.join(", ")}, and GitHub refuses workflow changes from a token without the Workflows permission; hold them back, or run as an app with "Workflows: Read and write" and set pushWorkflows: true in .github/cfa.yml`,
    );
  }
}
