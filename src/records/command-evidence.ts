// What the engine saw a command do, so a verdict shows its evidence: recorded from the
// sandbox's result, never from what the model says it ran. A verifier's verdict and a
// worker's reply carry the evidence of their turn; the status comment and the check runs show
// it ("`npm test` exit 0, 32 passed"), and a pass with none is shown as unverified.

import * as z from "zod";
import { testSummary } from "./test-counts/index.js";

export const CommandEvidenceSchema = z.object({
  /** The command as run, one line, clipped (argv joined; a setup's shell line as written). */
  command: z.string().max(400),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nonnegative(),
  /**
   * A test runner's own count when the output had one ("32 passed", "1 failed, 3 passed";
   * src/records/test-counts); absent when none was recognised, shown as "no count".
   */
  summary: z.string().max(120).optional(),
  timedOut: z.literal(true).optional(),
  /**
   * The audit line of a bash tool call: programs the command names that are not on the role's
   * command list. The list is a note to the agent, not a boundary (the sandbox is): they ran.
   */
  unlisted: z.array(z.string().max(60)).max(20).optional(),
});
export type CommandEvidence = z.infer<typeof CommandEvidenceSchema>;

/** Commands kept per turn: a verdict is judged by the last ones it ran, not a log of all. */
export const EVIDENCE_KEPT = 12;
const COMMAND_CHARS = 200;

/** The argv as one line a person can read; arguments that need it quoted. */
export function commandLine(argv: readonly string[]): string {
  const line = argv
    .map((a) => (/^[\w@%+=:,./-]+$/u.test(a) ? a : JSON.stringify(a)))
    .join(" ")
    .replace(/\s+/gu, " ");
  return line.length > COMMAND_CHARS ? `${line.slice(0, COMMAND_CHARS - 1)}…` : line;
}

export function evidenceOf(
  command: string,
  result: {
    exitCode: number | null;
    durationMs: number;
    timedOut: boolean;
    stdout: string;
    stderr: string;
    /** The sandbox cut stdout or stderr at its byte cap. */
    truncated?: boolean;
  },
): CommandEvidence {
  const summary = testSummary([result.stdout, result.stderr], {
    truncated: result.truncated === true,
  });
  return {
    command: command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command,
    exitCode: result.exitCode,
    durationMs: Math.max(0, Math.round(result.durationMs)),
    ...(summary === null ? {} : { summary }),
    ...(result.timedOut ? { timedOut: true as const } : {}),
  };
}

/** A shell command line as one line a person can read, clipped like an argv's. */
export function shellLine(command: string): string {
  const line = command.trim().replace(/\s+/gu, " ");
  return line.length > COMMAND_CHARS ? `${line.slice(0, COMMAND_CHARS - 1)}…` : line;
}

/** The last `EVIDENCE_KEPT` of a turn's commands. */
export function keepEvidence(list: readonly CommandEvidence[]): CommandEvidence[] {
  return list.slice(-EVIDENCE_KEPT);
}

/**
 * How a command ended and what its runner counted, as every view says it: "exit 0, 32
 * passed", "exit 0, no count". A runner whose output is not recognised is never shown as a
 * pass of unknown size: the exit code stands alone, said to have no count.
 */
export function evidenceOutcome(
  e: Pick<CommandEvidence, "exitCode" | "timedOut" | "summary">,
): string {
  return `${commandEnd(e)}, ${e.summary ?? "no count"}`;
}

/** "exit 0", "timed out", "killed": how the command ended, for a setup row. */
export function commandEnd(e: Pick<CommandEvidence, "exitCode" | "timedOut">): string {
  return e.timedOut === true ? "timed out" : e.exitCode === null ? "killed" : `exit ${e.exitCode}`;
}

/** A log line's evidence: the last command and its exit, or that none ran. */
export function evidenceSuffix(evidence: readonly CommandEvidence[]): string {
  const last = evidence.at(-1);
  if (last === undefined) return " (no command run: unverified)";
  return ` (${last.command}: ${evidenceOutcome(last)})`;
}
