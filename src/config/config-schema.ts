// The schema of `.github/cfa.yml` (docs/configuration.md; docs/protocol.md#configuration).
// Every key is optional and defaulted; unknown keys are errors, so a typo cannot silently fall
// back to a default.

import * as z from "zod";
import { DEFAULT_CAPS, DEFAULT_NUDGE_LIMIT, DEFAULT_RETRY_BUDGET } from "../protocol/failure.js";
import type { LiveState } from "../protocol/fsm.js";
import { DEFAULT_COMMANDS } from "./default-commands.js";
import { ESCALATION_POLICIES } from "./escalation-policy.js";
import { closest } from "./edit-distance.js";
import { MODEL_TIERS, isModelTier } from "./model-tiers.js";
import type { Role } from "./roles.js";
import { DEFAULT_COMMAND_LIMITS } from "../ports/sandbox.js";
import { EFFORTS } from "../ports/model.js";
import { NetworkSettingSchema } from "./network-setting.js";
import { ReadOnlyPathSchema } from "./read-only-paths.js";
import { GITHUB_FILE_LIMIT_MIB } from "../git/file-size-limit.js";
import { SetupSettingSchema, toSetupConfig } from "./setup-setting.js";
import { InstructionsSettingSchema, instructionFiles } from "./instructions-setting.js";
import { McpSettingSchema } from "./mcp-setting.js";

export const CONFIG_PATH = ".github/cfa.yml";

export const SANDBOX_MODES = ["require", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export const AUDIT_TRAIL_MODES = ["keep", "drop"] as const;
/** `execute.runners`: where a job's tasks run. */
export const RUNNER_MODES = ["single", "auto", "per-task"] as const;
export type RunnerMode = (typeof RUNNER_MODES)[number];

/** Where Claude is reached: the Anthropic API (or a gateway), Bedrock, Vertex AI. */
export const PROVIDERS = ["anthropic", "bedrock", "vertex"] as const;
export type Provider = (typeof PROVIDERS)[number];
export type AuditTrailMode = (typeof AUDIT_TRAIL_MODES)[number];
/** A follow-up's INTENT gate: asked of the person (`gate`), or approved as drafted (`auto`). */
export const FOLLOW_UP_INTENT_MODES = ["gate", "auto"] as const;
export type FollowUpIntentMode = (typeof FOLLOW_UP_INTENT_MODES)[number];

/** GitHub's login rule: alphanumerics and single inner hyphens, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const BOT_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(?:\[bot\])?$/;
/** A program name, never a path or a command line: the sandbox compares it with argv[0]. */
const PROGRAM = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/;
const WORKFLOW_FILE = /^[A-Za-z0-9._-]+\.ya?ml$/;
/** us-east-1, eu-central-2, us-gov-west-1, … */
const AWS_REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d{1,2}$/;
/** us-east5, europe-west1, global, us, eu (the Vertex AI locations Claude is served from). */
const GCP_REGION = /^(global|us|eu|[a-z]+-[a-z]+\d{1,2})$/;
/** Google Cloud project ids: 6-30 lowercase letters, digits, hyphens, starting with a letter. */
const GCP_PROJECT = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** The Actions job limit (6 h): a longer command timeout could never be reached. */
const MAX_COMMAND_SECONDS = 6 * 60 * 60;
const DEFAULT_FILE_MIB = 10;
/** One hour per turn (docs/configuration.md). */
export const DEFAULT_TURN_TIMEOUT_SECONDS = 60 * 60;

const model = z
  .string()
  .regex(MODEL_ID, { error: `expected a tier (${MODEL_TIERS.join(", ")}) or a model id` })
  // A near-miss of a tier ("capabel") would otherwise pass as a model id and fail only
  // when the first request is refused.
  .refine((value) => isModelTier(value) || closest(value, MODEL_TIERS, 2) === undefined, {
    error: (issue) => {
      const value = String(issue.input);
      const tier = closest(value, MODEL_TIERS, 2) ?? "";
      return `${JSON.stringify(value)} is neither a tier nor a model id; did you mean "${tier}"?`;
    },
  });

const perRole = <S extends z.ZodType>(make: (role: Role) => S) =>
  z.strictObject({
    "intent-lead": make("intent-lead"),
    "project-lead": make("project-lead"),
    worker: make("worker"),
    verifier: make("verifier"),
    proxy: make("proxy"),
  } satisfies Record<Role, S>);

const perState = <S extends z.ZodType>(make: (state: LiveState) => S) =>
  z.strictObject({
    INTENT: make("INTENT"),
    PLAN: make("PLAN"),
    EXECUTE: make("EXECUTE"),
  } satisfies Record<LiveState, S>);

export const CfaConfigFileSchema = z.strictObject({
  /** The issue label that starts a job. GitHub labels are at most 50 characters. */
  label: z.string().trim().min(1).max(50).default("cfa"),
  /** The escalation policy of each live state (docs/protocol.md#escalation). */
  escalation: perState(() => z.enum(ESCALATION_POLICIES).default("always")).prefault({}),
  /** Retries per state before FAILURE, so every job terminates (docs/protocol.md#invariants). */
  retryBudget: z.int().min(0).max(20).default(DEFAULT_RETRY_BUDGET),
  /**
   * Pending turns (docs/protocol.md#jobs-and-states): nudges in a row of a lead that stops without
   * finishing, asking or waiting on a task, before FAILURE. Nudges spend no retry budget.
   */
  nudges: z.int().min(0).max(50).default(DEFAULT_NUDGE_LIMIT),
  /**
   * Breaching a cap fails the job, so someone looks (docs/protocol.md#recorded-decisions). A value
   * equal to its cap is within it.
   */
  caps: z
    .strictObject({
      turns: z.int().min(1).default(DEFAULT_CAPS.turns),
      backtracks: z.int().min(0).default(DEFAULT_CAPS.backtracks),
      costUsd: z.number().positive().default(DEFAULT_CAPS.costUsd),
    })
    .prefault({}),
  /** Open conversations per parent before a spark is blocked (docs/protocol.md#configuration). */
  fanOut: z.int().min(1).max(20).default(3),
  /**
   * Tasks may dispatch sub-tasks, down to this many levels below the lead
   * (1: only the lead dispatches).
   */
  dispatchDepth: z.int().min(1).max(10).default(3),
  models: perRole(() => model.default("capable")).prefault({}),
  commands: perRole((role) =>
    z
      .array(
        z
          .string()
          .regex(PROGRAM, { error: "expected a program name, not a path or a command line" }),
      )
      .default(() => [...DEFAULT_COMMANDS[role]]),
  ).prefault({}),
  /**
   * `false` (none, the default), `true` (everything, unfiltered) or a list of
   * ecosystems and hosts let through the sandbox's egress proxy (network-setting.ts).
   */
  network: perRole(() => NetworkSettingSchema.default(false)).prefault({}),
  /**
   * Commands that prepare every new workspace (the job's and each task's) before
   * an agent works in it, in the sandbox, with their own network (setup-setting.ts).
   */
  setup: SetupSettingSchema.optional(),
  /** `.mcp.json`'s tools per role, by tool-name pattern, and their time limits (mcp-setting.ts). */
  mcp: McpSettingSchema,
  /** Per-command resource limits, per role (src/ports/sandbox.ts). */
  commandLimits: perRole(() =>
    z
      .strictObject({
        processes: z.int().min(16).max(100_000).default(DEFAULT_COMMAND_LIMITS.processes),
        memoryMiB: z.int().min(64).max(1_048_576).default(DEFAULT_COMMAND_LIMITS.memoryMiB),
        fileSizeMiB: z.int().min(1).max(1_048_576).default(DEFAULT_COMMAND_LIMITS.fileSizeMiB),
        cpuSeconds: z
          .int()
          .min(1)
          .max(MAX_COMMAND_SECONDS * 64)
          .default(DEFAULT_COMMAND_LIMITS.cpuSeconds),
        tmpMiB: z.int().min(1).max(1_048_576).default(DEFAULT_COMMAND_LIMITS.tmpMiB),
        openFiles: z.int().min(64).max(1_048_576).default(DEFAULT_COMMAND_LIMITS.openFiles),
        connections: z.int().min(4).max(4096).default(DEFAULT_COMMAND_LIMITS.connections),
      })
      .prefault({}),
  ).prefault({}),
  /**
   * Per role: the output budget per request (thinking included) and the effort. Unset keys
   * keep the role's defaults (src/agents/loop/output-plan.ts): leads and workers 32,000 / high,
   * the verifier 16,000 / medium, the proxy 8,000 / medium.
   */
  output: perRole(() =>
    z
      .strictObject({
        maxTokens: z.int().min(1024).max(128_000).optional(),
        effort: z.enum(EFFORTS).optional(),
      })
      .prefault({}),
  ).prefault({}),
  /**
   * A workspace whose boundary cannot be verified is refused unless `off`
   * (docs/protocol.md#workspaces). Either the mode alone (`sandbox: off`) or
   * `{ mode, readOnlyPaths }` (host folders added read-only to the sandbox, on top of
   * DEFAULT_READ_ONLY_PATHS). The parsed config keeps `sandbox` as the mode and carries the paths
   * as `sandboxReadOnlyPaths`.
   */
  sandbox: z
    .union(
      [
        z.enum(SANDBOX_MODES),
        z.strictObject({
          mode: z.enum(SANDBOX_MODES).default("require"),
          readOnlyPaths: z
            .array(ReadOnlyPathSchema)
            .max(64)
            .default(() => []),
        }),
      ],
      { error: "expected require, off, or a mapping { mode, readOnlyPaths }" },
    )
    .default("require"),
  limits: z
    .strictObject({
      toolCallsPerTurn: z.int().min(1).default(60),
      commandTimeoutSeconds: z.int().min(1).max(MAX_COMMAND_SECONDS).default(300),
      commandOutputBytes: z.int().min(1).default(65536),
      /**
       * The largest file a commit takes, in MiB. A file over it stays in the
       * workspace, untracked, and the agent is told. GitHub blocks files over 100 MiB (so a
       * push holding one fails, and every push after it) and warns from 50 MiB ("About large
       * files on GitHub"), hence the ceiling; 10 MiB is far above any source file or lockfile
       * and far below GitHub's warning.
       */
      fileMiB: z.int().min(1).max(GITHUB_FILE_LIMIT_MIB).default(DEFAULT_FILE_MIB),
      /**
       * The wall-clock limit of one agent turn (docs/protocol.md#configuration).
       * Exceeded, the turn stops (its call in flight is cut) and that is a state-level failure
       * naming the limit. The default allows 60 tool calls at about a minute each.
       */
      turnTimeoutSeconds: z
        .int()
        .min(1)
        .max(MAX_COMMAND_SECONDS)
        .default(DEFAULT_TURN_TIMEOUT_SECONDS),
      /**
       * How long one model call keeps retrying an unavailable API (outage, overload, rate
       * limit) before the wake ends with the job waiting for it.
       */
      apiPatienceMinutes: z.int().min(1).max(360).default(15),
      /**
       * How long the worker's run may last (the work job's `timeout-minutes` in the
       * workflow templates: 340), and how long before that the wake stops at a turn boundary,
       * pushes what it did and dispatches the job's next run, instead of being cut by the
       * time limit.
       */
      runMinutes: z.int().min(10).max(7200).default(340),
      stopMarginMinutes: z.int().min(1).max(120).default(20),
      /** The output budget of every role, thinking included; unset: each role's own (output:). */
      maxTokens: z.int().min(1024).max(128_000).optional(),
    })
    .prefault({}),
  /** Where Claude is reached; credentials come from the environment (docs/install.md). */
  provider: z.enum(PROVIDERS).default("anthropic"),
  /** Amazon Bedrock: region (default AWS_REGION) and the model id Bedrock knows each model by. */
  bedrock: z
    .strictObject({
      region: z
        .string()
        .regex(AWS_REGION, { error: "expected an AWS region such as us-east-1" })
        .optional(),
      /** Claude model id → Bedrock model or inference-profile id; default global.anthropic.<id>. */
      models: z.record(z.string().regex(MODEL_ID), z.string().regex(MODEL_ID)).default(() => ({})),
    })
    .prefault({}),
  /** Google Vertex AI: region (default CLOUD_ML_REGION), project, model ids. */
  vertex: z
    .strictObject({
      region: z
        .string()
        .regex(GCP_REGION, { error: "expected a Vertex AI region such as us-east5 or global" })
        .optional(),
      project: z
        .string()
        .regex(GCP_PROJECT, { error: "expected a Google Cloud project id" })
        .optional(),
      /** Claude model id → Vertex model id; default the same id. */
      models: z.record(z.string().regex(MODEL_ID), z.string().regex(MODEL_ID)).default(() => ({})),
    })
    .prefault({}),
  /**
   * Where the tasks the project lead dispatches run. `single`: in the lead's
   * run; `per-task`: each in its own workflow run (the workflow's `task` job); `auto`: in its
   * own run only where that pays (src/engine/fanout/choose-runner.ts, thresholds measured by
   * `npm run bench -- runners`). Sub-tasks always stay in their parent task's run.
   */
  execute: z
    .strictObject({
      runners: z.enum(RUNNER_MODES).default("auto"),
    })
    .prefault({}),
  /** The worker workflow's file name under .github/workflows/. */
  workflow: z
    .string()
    .regex(WORKFLOW_FILE, { error: "expected a workflow file name such as cfa.yml" })
    .default("cfa.yml"),
  /** Logins allowed to act besides people with write access. Compare case-insensitively. */
  approvers: z
    .array(z.string().regex(LOGIN, { error: "expected a GitHub login" }))
    .default(() => []),
  /**
   * People asked to review every gate besides the job's requester (whoever added the label).
   * A review counts from any of them with write access or listed in `approvers`.
   */
  reviewers: z
    .array(z.string().regex(LOGIN, { error: "expected a GitHub login" }))
    .default(() => []),
  /** Bot logins (e.g. `renovate[bot]`) whose commands count; other bots are ignored. */
  allowBots: z
    .array(z.string().regex(BOT_LOGIN, { error: "expected a GitHub login such as my-app[bot]" }))
    .default(() => []),
  /**
   * Push agents' changes to `.github/workflows/`. Only for cfa-bot running as a GitHub App
   * with the Workflows (read and write) permission: GitHub refuses such pushes from any other
   * token, the workflow's GITHUB_TOKEN included. Off: those changes are held back and said.
   */
  pushWorkflows: z.boolean().default(false),
  /**
   * Gates nobody answers, so a job does not wait forever: one reminder
   * mentioning the reviewers after `remindAfterHours`, and the job withdrawn, saying why,
   * after `expireAfterDays`. Each absent: a gate waits without it. Driven by the sweep.
   */
  gates: z
    .strictObject({
      remindAfterHours: z.number().positive().max(8760).optional(),
      expireAfterDays: z.number().positive().max(365).optional(),
    })
    .prefault({}),
  /** `drop` removes .cfa/jobs/<N>/ in a last commit before DONE (docs/configuration.md). */
  auditTrail: z.enum(AUDIT_TRAIL_MODES).default("keep"),
  /** The repository's instruction files every agent reads (instructions-setting.ts). */
  instructions: InstructionsSettingSchema,
  /**
   * Follow-ups (docs/protocol.md#jobs-and-states): `intent: auto` approves a follow-up's
   * INTENT.md without asking, for teams whose review or `/cfa` request is the intent; `gate`
   * (the default) asks as for any job.
   */
  followups: z
    .strictObject({ intent: z.enum(FOLLOW_UP_INTENT_MODES).default("gate") })
    .prefault({}),
});

/**
 * The file's schema, with `sandbox` flattened to its mode (what the engine's sandbox
 * factory takes) and the read-only paths beside it, and `setup` as argv lists.
 */
export const CfaConfigSchema = CfaConfigFileSchema.transform(
  ({ sandbox, setup, instructions, ...rest }) => ({
    ...rest,
    setup: toSetupConfig(setup),
    instructions: instructionFiles(instructions),
    sandbox: typeof sandbox === "string" ? sandbox : sandbox.mode,
    sandboxReadOnlyPaths: typeof sandbox === "string" ? [] : sandbox.readOnlyPaths,
  }),
);

export type CfaConfig = z.infer<typeof CfaConfigSchema>;
/** What a repository may write: every key optional. */
export type CfaConfigInput = z.input<typeof CfaConfigSchema>;
