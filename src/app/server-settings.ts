// What the webhook server needs from the environment, read once at the entry point. The app
// refuses to start without a real webhook secret (Probot would fall back to "development", its
// server.js `defaultWebhookSecret`, and accept forged deliveries), and without its id and key
// (Probot would otherwise start its setup mode, which runs with no secret at all).

import { readFileSync } from "node:fs";
import * as z from "zod";
import { ConfigError, parseEnv, type ConfigIssue, type Env } from "../config/index.js";

export interface ServerSettings {
  appId: number;
  privateKey: string;
  secret: string;
  host: string;
  port: number;
  webhookPath: string;
  /**
   * GitHub's REST API: github.com's by default, `GHE_PROTOCOL://GHE_HOST/api/v3` for GitHub
   * Enterprise Server, as Probot's own run() builds it (probot/probot
   * src/bin/read-env-options.ts, docs/github-api.md "GitHub Enterprise").
   */
  baseUrl: string;
  /** LOG_LEVEL and LOG_FORMAT, as Probot reads them (JSON by default in production). */
  logLevel: LogLevel;
  logFormat: "json" | "pretty";
}

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const GITHUB_COM_API = "https://api.github.com";

const ServerEnvSchema = z.object({
  // 0 lets the system choose (tests); Probot's own default is 3000.
  PORT: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  // Listen on every interface: the app runs in a container behind a port mapping.
  HOST: z.preprocess(blankToUndefined, z.string().default("0.0.0.0")),
  WEBHOOK_PATH: z.preprocess(
    blankToUndefined,
    z.string().startsWith("/").default("/api/github/webhooks"),
  ),
  PRIVATE_KEY_PATH: z.preprocess(blankToUndefined, z.string().optional()),
  // A host name with an optional port, never a URL: Probot adds the scheme and /api/v3.
  GHE_HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(
        /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/,
        "must be the GitHub Enterprise Server's host name (e.g. github.example.com), without https:// or a path",
      )
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(blankToUndefined, z.enum(LOG_LEVELS).default("info")),
  LOG_FORMAT: z.preprocess(blankToUndefined, z.enum(["json", "pretty"]).optional()),
  NODE_ENV: z.string().optional(),
  GHE_PROTOCOL: z.preprocess(
    blankToUndefined,
    z.enum(["https", "http"], { error: 'must be "https" (the default) or "http"' }).optional(),
  ),
});

export function serverSettings(
  env: Readonly<Record<string, string | undefined>>,
  readKey: (path: string) => string = (path) => readFileSync(path, "utf8"),
): ServerSettings {
  // Every missing or bad variable is named in one message: a person setting
  // up the app fixes them in one pass, not one group per start.
  const issues: ConfigIssue[] = [];
  let base: Env | undefined;
  try {
    // Throws a ConfigError naming WEBHOOK_SECRET when it is unset or "development".
    base = parseEnv(env, { app: true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  const server = ServerEnvSchema.safeParse(env);
  if (!server.success) {
    issues.push(
      ...server.error.issues.map((issue) => ({
        path: issue.path.join("."),
        message: `${issue.path.join(".")}: ${issue.message}`,
      })),
    );
  }
  const named = (path: string) => issues.some((issue) => issue.path === path);
  // Read raw when the shared parse failed on another variable (a placeholder secret): an
  // APP_ID that is set is not reported missing.
  if (base?.APP_ID === undefined && !named("APP_ID") && nonBlank(env["APP_ID"]) === undefined) {
    issues.push({ path: "APP_ID", message: "APP_ID: must be set to the GitHub App's id" });
  }
  // Read raw when the shared parse failed, so a missing key is named alongside the rest.
  let privateKey = base === undefined ? nonBlank(env["PRIVATE_KEY"]) : base.PRIVATE_KEY;
  const keyPath = server.success ? server.data.PRIVATE_KEY_PATH : undefined;
  if (privateKey === undefined && keyPath !== undefined) {
    try {
      privateKey = readKey(keyPath);
    } catch {
      issues.push({
        path: "PRIVATE_KEY_PATH",
        message: "PRIVATE_KEY_PATH: cannot read the file it names",
      });
    }
  }
  if (privateKey === undefined && keyPath === undefined) {
    issues.push({
      path: "PRIVATE_KEY",
      message:
        "PRIVATE_KEY: must be set to the GitHub App's private key (or PRIVATE_KEY_PATH to its .pem file)",
    });
  }
  const key = privateKey === undefined ? undefined : normaliseKey(privateKey);
  if (key !== undefined && !key.includes("-----BEGIN")) {
    issues.push({
      path: "PRIVATE_KEY",
      message: "PRIVATE_KEY: is not a PEM private key (nor base64 of one)",
    });
  }
  if (issues.length > 0 || !server.success || base?.APP_ID === undefined || key === undefined) {
    throw new ConfigError("environment", issues);
  }
  return {
    appId: base.APP_ID,
    privateKey: key,
    // parseEnv({ app: true }) guarantees it is set and not Probot's placeholder.
    secret: base.WEBHOOK_SECRET ?? "",
    host: server.data.HOST,
    port: server.data.PORT,
    webhookPath: server.data.WEBHOOK_PATH,
    baseUrl:
      server.data.GHE_HOST === undefined
        ? GITHUB_COM_API
        : `${server.data.GHE_PROTOCOL ?? "https"}://${server.data.GHE_HOST}/api/v3`,
    logLevel: server.data.LOG_LEVEL,
    // Probot's rule (src/bin/read-env-options.ts): JSON in production unless asked otherwise.
    logFormat:
      server.data.LOG_FORMAT ?? (server.data.NODE_ENV === "production" ? "json" : "pretty"),
  };
}

/** PEM as written, with `\n` escapes (one-line variables), or base64 of the PEM. */
function normaliseKey(raw: string): string {
  const text = raw.trim();
  if (text.includes("-----BEGIN")) return text.replace(/\\n/g, "\n").trim();
  try {
    return Buffer.from(text, "base64").toString("utf8").trim();
  } catch {
    return text;
  }
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function blankToUndefined(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}
