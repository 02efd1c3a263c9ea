export { CHECK_SUMMARY_LIMIT, checkRunFields } from "./check-run-fields.js";
export { CONFIG_PATH, createGitHubForge } from "./github-forge.js";
export type { GitHubForge, GitHubForgeOptions } from "./github-forge.js";
export {
  GitHubForgeError,
  isGitHubOutage,
  statusOf,
  toGitHubForgeError,
} from "./github-forge-error.js";
export type { CheckRunFields, GitHubOctokit, GitHubResponse } from "./github-octokit.js";
export { mapPermission } from "./map-permission.js";
export { GHOST, toActor } from "./map-responses.js";
export { basicAuthHeader, basicCredentials, pushBranch, pushEnvironment } from "./push-branch.js";
export type { PushTarget } from "./push-branch.js";
export { PushRejectedError } from "./push-rejected-error.js";
export { InvalidPushError, validatePush } from "./validate-push.js";
export { WorkflowPushError } from "./workflow-push-error.js";
export { createGitHubTaskRuns } from "./task-runs.js";
export type { ActionsRequester } from "./task-runs.js";
