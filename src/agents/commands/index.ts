export { checkCommand } from "./check-command.js";
export {
  COMMAND_REFUSAL_REASONS,
  CommandRefusedError,
  type CommandRefusalReason,
} from "./errors.js";
export { BASE_ENV_NAMES, reduceEnv, type EnvLike } from "./reduce-env.js";
export { runCommand, type CommandRole, type RunCommandInput } from "./run-command.js";
export { TOOL_DEFAULTS, withToolDefaults } from "./tool-defaults.js";
export { relativeToWorkspace } from "./relative-paths.js";
