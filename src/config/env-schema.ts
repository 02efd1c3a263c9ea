// The process settings read from the environment (Probot falls back to the webhook
// secret "development" when none is set: its server.js, `defaultWebhookSecret`; so the app
// refuses to start without a real one). Values are secrets: messages about them never
// include them.

import * as z from "zod";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Probot's stand-in secret: accepting it would accept forged deliveries. */
const PROBOT_DEFAULT_SECRET = "development";

/** GitHub Actions passes a missing secret as ""; treat blank as unset. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );

const webhookSecret = z.string().refine((value) => value !== PROBOT_DEFAULT_SECRET, {
  error: "is Probot's insecure placeholder; set the secret configured on the GitHub App's webhook",
});

export const EnvSchema = z.object({
  ANTHROPIC_API_KEY: optional(z.string()),
  GITHUB_TOKEN: optional(z.string()),
  WEBHOOK_SECRET: optional(webhookSecret),
  APP_ID: optional(
    z
      .string()
      .regex(/^[1-9][0-9]*$/, { error: "expected the GitHub App's numeric id" })
      .transform(Number),
  ),
  PRIVATE_KEY: optional(z.string()),
  CFA_LOG_LEVEL: z.preprocess(
    (value) =>
      typeof value === "string" && value.trim() !== "" ? value.trim().toLowerCase() : undefined,
    z.enum(LOG_LEVELS).default("info"),
  ),
});

export type Env = z.infer<typeof EnvSchema>;

/** The settings the webhook app cannot start without. */
export const APP_REQUIRED = ["WEBHOOK_SECRET"] as const satisfies readonly (keyof Env)[];
