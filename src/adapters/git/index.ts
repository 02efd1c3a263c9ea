export { FALLBACK_EMAIL, FALLBACK_NAME } from "./committer-identity.js";
export { createGitWorkspaces } from "./create-git-workspaces.js";
export type { GitWorkspacesOptions } from "./create-git-workspaces.js";
export { WorkspaceBoundaryError } from "./workspace-boundary-error.js";
export { WORKSPACE_OPERATIONS, WorkspaceError } from "./workspace-error.js";
export type { WorkspaceOperation } from "./workspace-error.js";
