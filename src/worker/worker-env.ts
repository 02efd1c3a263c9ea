// The Actions environment the worker runs in, read once at the entry point (README,
// "Conventions"). GitHub sets most of these on every runner; the action maps its inputs to the
// CFA_* ones. Values are never echoed: some are secrets.

import { tmpdir } from "node:os";
import * as z from "zod";
import { ConfigError, parseEnv, type ConfigIssue, type Env } from "../config/index.js";
import type { WorkerCredentials } from "./github-client.js";

const blank = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blank, schema.optional());
const withDefault = <S extends z.ZodType<string>>(schema: S, fallback: () => string) =>
  z.preprocess(blank, schema.optional()).transform((value) => value ?? fallback());

export const WorkerEnvSchema = z.object({
  GITHUB_REPOSITORY: z.preprocess(
    blank,
    z
      .string({ error: "must be set to owner/repo (Actions sets it on every runner)" })
      .regex(/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/, { error: "expected owner/repo" }),
  ),
  GITHUB_API_URL: withDefault(z.url(), () => "https://api.github.com"),
  GITHUB_SERVER_URL: withDefault(z.url(), () => "https://github.com"),
  GITHUB_EVENT_NAME: optional(z.string()),
  GITHUB_EVENT_PATH: optional(z.string()),
  GITHUB_WORKFLOW_REF: optional(z.string()),
  GITHUB_RUN_ID: optional(z.string()),
  GITHUB_RUN_ATTEMPT: optional(z.string()),
  GITHUB_STEP_SUMMARY: optional(z.string()),
  /** The checkout the worker commits in and pushes from. */
  GITHUB_WORKSPACE: withDefault(z.string(), () => process.cwd()),
  /** Job areas live here, outside the checkout, and vanish with the runner. */
  RUNNER_TEMP: withDefault(z.string(), () => tmpdir()),
  /** The job number, from the workflow_dispatch input (the action passes it on). */
  CFA_JOB: optional(z.string().regex(/^[1-9][0-9]{0,9}$/, { error: "expected an issue number" })),
  /** A task run's inputs, checked by worker-mode.ts where they are used. */
  CFA_TASK: optional(z.string().max(100)),
  CFA_EPOCH: optional(z.string().max(20)),
  CFA_WAKE_LEAD: optional(z.string().max(20)),
  /** The login the token posts as: github-actions[bot] for the workflow's own token. */
  CFA_BOT_LOGIN: withDefault(z.string(), () => "github-actions[bot]"),
  /** Acting as the app (APP_ID and PRIVATE_KEY set): its installation on this repository. */
  CFA_INSTALLATION_ID: optional(
    z
      .string()
      .regex(/^[1-9][0-9]*$/, { error: "expected the app installation's numeric id" })
      .transform(Number),
  ),
});

export type WorkerEnv = z.infer<typeof WorkerEnvSchema> & {
  settings: Env;
  owner: string;
  repo: string;
  /** The workflow's token, or the app's id and key: the app's tokens are minted as needed. */
  credentials: WorkerCredentials;
};

/**
 * A PEM key as people paste it into a secret: as is, with its newlines written as `\n`, or
 * base64 of the whole PEM (the forms Probot accepts too).
 */
function pem(key: string): string {
  const trimmed = key.trim();
  if (trimmed.includes("-----BEGIN")) {
    return trimmed.includes("\n") ? trimmed : trimmed.replace(/\\n/g, "\n");
  }
  const decoded = Buffer.from(trimmed, "base64").toString("utf8");
  return decoded.includes("-----BEGIN") ? decoded.trim() : trimmed;
}

export function parseWorkerEnv(env: Readonly<Record<string, string | undefined>>): WorkerEnv {
  const settings = parseEnv(env);
  const parsed = WorkerEnvSchema.safeParse(env);
  const issues: ConfigIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const path = issue.path.join(".");
        return { path, message: `${path}: ${issue.message}` };
      });
  // Acting as the app needs both halves; one alone is a mistake worth naming.
  const asApp = settings.APP_ID !== undefined || settings.PRIVATE_KEY !== undefined;
  if (asApp && (settings.APP_ID === undefined || settings.PRIVATE_KEY === undefined)) {
    const missing = settings.APP_ID === undefined ? "APP_ID" : "PRIVATE_KEY";
    issues.push({
      path: missing,
      message: `${missing}: must be set too: acting as the app needs both APP_ID and PRIVATE_KEY`,
    });
  } else if (!asApp && settings.GITHUB_TOKEN === undefined) {
    issues.push({
      path: "GITHUB_TOKEN",
      message:
        "GITHUB_TOKEN: must be set (the workflow's token, passed to the action), or APP_ID and PRIVATE_KEY to act as the app",
    });
  }
  if (!parsed.success || issues.length > 0) throw new ConfigError("environment", issues);
  const [owner = "", repo = ""] = parsed.data.GITHUB_REPOSITORY.split("/");
  const credentials: WorkerCredentials =
    settings.APP_ID !== undefined && settings.PRIVATE_KEY !== undefined
      ? {
          kind: "app",
          appId: settings.APP_ID,
          privateKey: pem(settings.PRIVATE_KEY),
          installationId: parsed.data.CFA_INSTALLATION_ID,
          owner,
          repo,
        }
      : { kind: "token", token: settings.GITHUB_TOKEN ?? "" };
  return { ...parsed.data, settings, owner, repo, credentials };
}
