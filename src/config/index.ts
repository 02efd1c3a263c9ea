// The configuration layer: `.github/cfa.yml` and the process environment.

export * from "./config-error.js";
export * from "./config-issue.js";
export * from "./config-schema.js";
export * from "./default-commands.js";
export * from "./default-config.js";
export * from "./detect-ecosystems.js";
export * from "./ecosystems.js";
export * from "./egress.js";
export * from "./env-schema.js";
export * from "./escalation-policy.js";
export * from "./format-config-errors.js";
export * from "./mcp-servers.js";
export * from "./mcp-setting.js";
export * from "./model-tiers.js";
export * from "./network-setting.js";
export * from "./parse-config.js";
export * from "./parse-env.js";
export * from "./read-only-paths.js";
export * from "./roles.js";
export * from "./setup-setting.js";
