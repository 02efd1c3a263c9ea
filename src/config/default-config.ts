// The configuration of a repository without `.github/cfa.yml`.

import { CfaConfigSchema, type CfaConfig } from "./config-schema.js";

/** A fresh copy each call: callers may keep and change it without affecting others. */
export function defaultConfig(): CfaConfig {
  return CfaConfigSchema.parse({});
}
