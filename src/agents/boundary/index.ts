export { BOUNDARY_REASONS, BoundaryError, isBoundaryReason } from "./boundary-error.js";
export type { BoundaryReason } from "./boundary-error.js";
export { foldName } from "./fold-name.js";
export { isGitComponent } from "./is-git-component.js";
export { isProtected } from "./is-protected.js";
export { resolveInWorkspace } from "./resolve-in-workspace.js";
export type { ResolveOptions } from "./resolve-in-workspace.js";
