// The recording format the scripted model plays and the recording model writes: per instance
// (`agent@thread`), the responses in the order that instance asked for them, each with an
// optional expectation about the request it answers. Per-instance queues keep a replay exact
// even when parallel tasks interleave differently from the recorded run.

import * as z from "zod";
import { STOP_REASONS } from "../../ports/model.js";
import { parseAddressKey } from "../../protocol/address.js";
import { TOOL_SETS } from "../../records/tool-sets.js";

export const RECORDING_VERSION = 1;

const tokens = z.number().int().nonnegative();

// Loose: a recorded real run keeps whatever else the API put on a block (`citations`, …),
// as the transcript does; a block of a type the port does not model is "opaque".
const AssistantBlockSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({
    type: z.literal("tool_use"),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.unknown(),
  }),
  z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() }),
  z
    .object({ type: z.literal("opaque"), block: z.looseObject({ type: z.string().min(1) }) })
    .strict(),
]);

export const StepSchema = z
  .object({
    expect: z
      .object({
        /** Text the last user message (its text and tool results) must contain. */
        lastUserIncludes: z.string().min(1).optional(),
        /** A tool (by name) whose result the last user message must carry. */
        toolResultFor: z.string().min(1).optional(),
        model: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    response: z
      .object({
        content: z.array(AssistantBlockSchema),
        stopReason: z.enum(STOP_REASONS),
        usage: z
          .object({
            inputTokens: tokens,
            outputTokens: tokens,
            cacheReadTokens: tokens,
            cacheWriteTokens: tokens,
            cacheWrite1hTokens: tokens.optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

const InstanceKeySchema = z.string().refine(
  (key) => {
    try {
      parseAddressKey(key);
      return true;
    } catch {
      return false;
    }
  },
  { message: "an instance key is agent@thread" },
);

export const RecordingSchema = z
  .object({
    version: z.literal(RECORDING_VERSION),
    /**
     * The tools the recorded agents had (src/records/tool-sets.ts): a replay gives its agents
     * the same, so each recorded call finds its tool. Absent: `classic`, the set of every
     * recording made before sets had names.
     */
    toolSet: z.enum(TOOL_SETS).optional(),
    instances: z.record(InstanceKeySchema, z.array(StepSchema)),
  })
  .strict();

export type Recording = z.infer<typeof RecordingSchema>;
export type Step = z.infer<typeof StepSchema>;

export class RecordingError extends Error {
  override readonly name = "RecordingError";
  constructor(
    /** Where in the JSON the first problem is, e.g. `$.instances["lead@job"][2].response`. */
    readonly path: string,
    problems: string,
    source: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `cfa/scripted: bad recording${source === undefined ? "" : ` ${source}`}: ${problems}; ` +
        `fix the file or record it again`,
      options,
    );
  }
}

/** Validates a recording (parsed JSON, or JSON text); `source` names the file in errors. */
export function parseRecording(input: unknown, source?: string): Recording {
  let json = input;
  if (typeof input === "string") {
    try {
      json = JSON.parse(input);
    } catch (cause) {
      throw new RecordingError("$", "at $: not JSON", source, { cause });
    }
  }
  const result = RecordingSchema.safeParse(json);
  // Validated, then the parsed JSON itself: zod's copy would move a block's keys around, and
  // a replayed response must come back exactly as it was recorded.
  if (result.success) return json as Recording;
  const issues = result.error.issues;
  const described = issues
    .slice(0, 5)
    .map((issue) => `at ${jsonPath(issue.path)}: ${describeIssue(issue)}`)
    .join("; ");
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
  throw new RecordingError(jsonPath(issues[0]?.path ?? []), described + more, source, {
    cause: result.error,
  });
}

// A record key's issue only says "Invalid key in record"; the reason is one level down.
function describeIssue(issue: z.core.$ZodIssue): string {
  const inner =
    "issues" in issue && Array.isArray(issue.issues) ? issue.issues.flat()[0] : undefined;
  return inner === undefined ? issue.message : `${issue.message}: ${inner.message}`;
}

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
