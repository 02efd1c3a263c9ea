// Every other failure of a workspace operation: an invalid name, a git command that failed,
// a file to copy that is missing. The message names the operation and what to do.

export const WORKSPACE_OPERATIONS = ["create", "open", "close", "drop"] as const;
export type WorkspaceOperation = (typeof WORKSPACE_OPERATIONS)[number];

export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
  constructor(
    readonly operation: WorkspaceOperation,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/workspaces: ${operation}: ${detail}`, options);
  }
}
