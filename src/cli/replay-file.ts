// The replay file: a request, the repository it ran on, the model's recorded responses per instance
// (the scripted recording format) and what the person did, in order. `cfa replay` re-runs the
// engine over it without a model (cache-only replay: docs/protocol.md#recorded-decisions);
// `cfa run --record` writes one. One zod schema for the surface (docs/contributing.md, "Conventions").

import * as z from "zod";
import {
  jsonPath,
  parseRecording,
  RECORDING_VERSION,
  RecordingError,
} from "../adapters/scripted/index.js";
import { CliError } from "./cli-error.js";
import { RepoPathSchema } from "../config/repo-path.js";
import type { ToolSetName } from "../records/tool-sets.js";

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
const RepoPath = RepoPathSchema(
  "a file path must be relative, inside the repository and outside .git",
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
  refuseOtherVersions(json, source);
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
  // The recording inside is checked now, before a replay builds anything: a bad one found
  // later left a half-built folder behind.
  try {
    parseRecording(parsed.data.recording, source);
  } catch (error) {
    if (!(error instanceof RecordingError)) throw error;
    const recording = parsed.data.recording;
    if (typeof recording !== "object" || recording === null) {
      throw new CliError(`${source} is not a cfa replay file: at $.recording: no recording.`);
    }
    const version = (recording as { version?: unknown }).version;
    throw new CliError(
      version !== RECORDING_VERSION
        ? `${source} holds a recording of format version ${JSON.stringify(version)} (at $.recording.version); this cfa reads recording version ${RECORDING_VERSION} only: record the job again with this cfa (\`cfa run --record FILE\`).`
        : `${source} holds a bad recording: at $.recording${error.path.slice(1)}: ${recordingProblem(error)}; fix the file or record the job again.`,
    );
  }
  return parsed.data;
}

/** The problem a RecordingError names, without its "cfa/scripted: bad recording …" frame. */
function recordingProblem(error: RecordingError): string {
  const m = /: at \$[^:]*: (.*); fix the file or record it again$/.exec(error.message);
  return m?.[1] ?? error.message;
}

/**
 * A file of another format version is named as such, with the versions this cfa reads and
 * what to do, before its fields are judged by a schema they were never written for.
 */
function refuseOtherVersions(json: unknown, source: string): void {
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof json !== "object" || json === null || version === REPLAY_VERSION) return;
  const read = `this cfa reads replay files of format version ${REPLAY_VERSION} (what \`cfa run --record\` writes)`;
  if (typeof version !== "number") {
    throw new CliError(
      `${source} names no format version (no number at $.version): ${read}; is it a replay file?`,
    );
  }
  throw new CliError(
    version > REPLAY_VERSION
      ? `${source} is a replay file of format version ${version}, newer than this cfa: ${read}. Update cfa to replay it.`
      : `${source} is a replay file of format version ${version}: ${read}. Record the job again with this cfa.`,
  );
}

/** A new recording, naming the tools its agents have (src/records/tool-sets.ts). */
export function emptyRecording(toolSet: ToolSetName) {
  return { version: RECORDING_VERSION, toolSet, instances: {} as Record<string, unknown[]> };
}

export function serializeReplayFile(file: ReplayFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
