// The replay file (issue 4 §4): a request, the repository it ran on, the model's recorded
// responses per instance (the scripted recording format) and what the person did, in order.
// `cfa replay` re-runs the engine over it without a model (seed 001 §F, cache-only replay);
// `cfa run --record` writes one. One zod schema for the surface (docs/contributing.md, "Conventions").

import * as z from "zod";
import { jsonPath, RECORDING_VERSION } from "../adapters/scripted/index.js";
import { CliError } from "./cli-error.js";

export const REPLAY_VERSION = 1;
/**
 * `resume` comments `/resume` when the job is paused; otherwise it does nothing on the forge:
 * the job is woken again (after a stopped wake). `followup` comments `/cfa <text>`: after the
 * job ended it starts a follow-up (docs/protocol.md#jobs-and-states).
 */
export const PERSON_ACTIONS = [
  "approve",
  "reject",
  "answer",
  "withdraw",
  "intervene",
  "resume",
  "pause",
  "followup",
] as const;
export type PersonActionKind = (typeof PERSON_ACTIONS)[number];

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/** A file the replay writes into its fresh repository: relative, inside it, not in `.git`. */
const RepoPath = z
  .string()
  .min(1)
  .refine(
    (p) =>
      !p.startsWith("/") &&
      !p.includes("\\") &&
      !p.includes("\0") &&
      p.split("/").every((part) => part !== "" && part !== "." && part !== "..") &&
      p.split("/")[0]?.toLowerCase() !== ".git",
    { error: "a file path must be relative, inside the repository and outside .git" },
  );

export const PersonActionSchema = z
  .strictObject({
    action: z.enum(PERSON_ACTIONS),
    job: z.int().positive().default(1),
    /** The review comment (reject) or note (approve), the answer, the withdraw or pause reason, the intervention. */
    text: z.string().optional(),
    /** The question an answer is for (q1, q2…); optional when only one is open. */
    id: z
      .string()
      .regex(/^q\d{1,6}$/)
      .optional(),
    /** A review's inline comments (reject only): each on a line of the pull request's diff. */
    inline: z
      .array(
        z.strictObject({
          path: RepoPath,
          line: z.int().positive(),
          text: z.string().trim().min(1),
        }),
      )
      .max(50)
      .optional(),
  })
  .refine(
    (a) => !["reject", "answer", "intervene", "followup"].includes(a.action) || !!a.text?.trim(),
    { path: ["text"], error: "reject, answer, intervene and followup need a text" },
  )
  .refine((a) => a.inline === undefined || a.action === "reject", {
    path: ["inline"],
    error: "only reject takes inline comments",
  });
export type PersonAction = z.infer<typeof PersonActionSchema>;

export const ReplayFileSchema = z.strictObject({
  version: z.literal(REPLAY_VERSION),
  /** What the file shows, for people reading it. */
  description: z.string().optional(),
  request: z.strictObject({ title: z.string().trim().min(1), body: z.string() }),
  /** The login of the person who made the run (their name reaches the agents' prompts). */
  person: z.string().regex(LOGIN).default("you"),
  files: z.record(RepoPath, z.string()).optional(),
  /** `.github/cfa.yml` of the repository. */
  config: z.string().optional(),
  /** The scripted model's recording; checked by the scripted adapter, which names the JSON path. */
  recording: z.unknown(),
  people: z.array(PersonActionSchema).default([]),
});
export type ReplayFile = z.infer<typeof ReplayFileSchema>;

export function parseReplayFile(text: string, source: string): ReplayFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${source} is not JSON (${(error as Error).message}).`);
  }
  const parsed = ReplayFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A record key's issue only says "Invalid key in record"; the reason is one level down.
    const inner =
      issue && "issues" in issue && Array.isArray(issue.issues)
        ? issue.issues.flat()[0]
        : undefined;
    const message =
      (inner as { message?: string } | undefined)?.message ?? issue?.message ?? "invalid";
    throw new CliError(
      `${source} is not a cfa replay file: at ${jsonPath(issue?.path ?? [])}: ${message}.`,
    );
  }
  return parsed.data;
}

export function emptyRecording() {
  return { version: RECORDING_VERSION, instances: {} as Record<string, unknown[]> };
}

export function serializeReplayFile(file: ReplayFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
