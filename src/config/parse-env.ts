// Reads the process settings once, at an entry point (docs/contributing.md, "Conventions": the core never
// reads process.env). Throws ConfigError naming every bad variable, never its value.

import { ConfigError } from "./config-error.js";
import { describeIssues } from "./describe-issues.js";
import { APP_REQUIRED, EnvSchema, type Env } from "./env-schema.js";

export interface ParseEnvOptions {
  /** True in the webhook app, which must verify deliveries: WEBHOOK_SECRET is required. */
  app?: boolean;
}

export function parseEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: ParseEnvOptions = {},
): Env {
  const parsed = EnvSchema.safeParse(env);
  const issues = parsed.success
    ? []
    : describeIssues(parsed.error.issues, env, {
        schema: EnvSchema,
        source: "environment",
        echo: false,
      });
  if (options.app === true) {
    for (const name of APP_REQUIRED) {
      // Read raw, so a missing secret is reported alongside any other bad variable.
      if ((env[name] ?? "").trim() === "") {
        issues.push({
          path: name,
          message: `${name}: must be set for the webhook app (the secret configured on the GitHub App's webhook)`,
        });
      }
    }
  }
  if (!parsed.success || issues.length > 0) throw new ConfigError("environment", issues);
  return parsed.data;
}
