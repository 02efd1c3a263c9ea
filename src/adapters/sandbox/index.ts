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
  SandboxRequestError,
  SandboxUnavailableError,
  type SandboxUnavailableReason,
} from "./errors.js";
export { probeBwrap } from "./probe-bwrap.js";
export { sanitizeGitConfig } from "./sanitize-git-config.js";
export { createUnsandboxed, type UnsandboxedOptions } from "./unsandboxed.js";
