export { createBwrapSandbox, type BwrapSandboxOptions } from "./bwrap-sandbox.js";
export { bwrapArgs, type BwrapPlan } from "./bwrap-args.js";
export {
  createSandbox,
  isSandboxMode,
  SANDBOX_MODES,
  type CreateSandboxOptions,
  type SandboxMode,
} from "./create-sandbox.js";
export {
  SANDBOX_UNAVAILABLE_REASONS,
  SandboxConfigError,
  SandboxRequestError,
  SandboxUnavailableError,
  type SandboxUnavailableReason,
} from "./errors.js";
export { probeBwrap, type ProbeOptions } from "./probe-bwrap.js";
export { sanitizeGitConfig } from "./sanitize-git-config.js";
export { createUnsandboxed, type UnsandboxedOptions } from "./unsandboxed.js";
export { etcFiles } from "./etc-files.js";
export { limitArgs } from "./limit-args.js";
export { createPidsCgroup, type PidsCgroup } from "./pids-cgroup.js";
export {
  discoverSystemRoot,
  ETC_ENTRIES,
  NETWORK_ETC_ENTRIES,
  SYSTEM_FOLDERS,
  type SystemRoot,
} from "./system-root.js";
export { CACHE_LAYOUT, cacheEnv, SANDBOX_HOME, type CacheLayout } from "./cache-env.js";
export {
  defaultToolchainPaths,
  HOSTED_TOOL_CACHE,
  resolveToolchains,
  type ShownToolchains,
  type ToolchainOptions,
} from "./toolchain-paths.js";
export {
  isRunnerRoot,
  RUNNER_ROOT_MARKERS,
  runnerFolderProblem,
  runnerFoldersFromEnv,
} from "./runner-folders.js";
export { CREDENTIAL_NAMES, credentialFilesIn, isCredentialFile } from "./credential-files.js";
