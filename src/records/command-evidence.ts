// What the engine saw a command do (issue 20 "Verdicts with evidence"): recorded from the
// sandbox's result, never from what the model says it ran. A verifier's verdict and a
// worker's reply carry the evidence of their turn; the status comment and the check runs show
// it ("`npm test` exit 0, 32 passed"), and a pass with none is shown as unverified.

import * as z from "zod";

export const CommandEvidenceSchema = z.object({
  /** The command as run, one line, clipped (argv joined; a setup's shell line as written). */
  command: z.string().max(400),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nonnegative(),
  /** A test runner's own count line when the output had one ("32 passed", "1 failed, 3 passed"). */
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
  },
): CommandEvidence {
  const summary = testSummary(`${result.stdout}\n${result.stderr}`);
  return {
    command: command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command,
    exitCode: result.exitCode,
    durationMs: Math.max(0, Math.round(result.durationMs)),
    ...(summary === null ? {} : { summary }),
    ...(result.timedOut ? { timedOut: true as const } : {}),
  };
}

/** The last `EVIDENCE_KEPT` of a turn's commands. */
export function keepEvidence(list: readonly CommandEvidence[]): CommandEvidence[] {
  return list.slice(-EVIDENCE_KEPT);
}

// ---- test runners' count lines, parsed defensively ----
// The output is the command's, so an agent can print any of these lines itself: the summary
// is shown beside the exit code the engine saw, never instead of it. Only the last 16 KiB
// are read, line by line, with anchored patterns of bounded repetition (no ReDoS), and
// counts are capped at 7 digits.

const TAIL_CHARS = 16 * 1024;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]{0,20}[A-Za-z]/gu;
const N = "(\\d{1,7})";

/** "32 passed", "1 failed, 31 passed", "3 passed, 1 skipped"; null when no runner's line is found. */
export function testSummary(output: string): string | null {
  const lines = output.slice(-TAIL_CHARS).replace(ANSI, "").split(/\r?\n/u);
  for (const parse of PARSERS) {
    for (let i = lines.length - 1; i >= 0; i -= 1) {
      const found = parse(lines[i]!.trim().slice(0, 300), lines, i);
      if (found !== null) return found;
    }
  }
  return null;
}

type Counts = { passed?: number; failed?: number; skipped?: number };

function say(counts: Counts): string | null {
  const parts: string[] = [];
  if (counts.failed !== undefined && counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.passed !== undefined) parts.push(`${counts.passed} passed`);
  if (counts.skipped !== undefined && counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
  return parts.length === 0 ? null : parts.join(", ");
}

function count(text: string, word: RegExp): number | undefined {
  const m = new RegExp(`${N}\\s+(?:${word.source})\\b`, "u").exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The passed, failed (pytest also counts errors) and skipped counts a summary's text names. */
function sayCounted(text: string, failed = /failed/): string | null {
  return say({
    passed: count(text, /passed/),
    failed: count(text, failed),
    skipped: count(text, /skipped/),
  });
}

const PARSERS: ((line: string, lines: readonly string[], at: number) => string | null)[] = [
  // vitest: " Tests  1 failed | 31 passed (32)"
  (line) => {
    const m = /^Tests\s{1,8}(.{1,120})\(\d{1,7}\)$/u.exec(line);
    if (!m) return null;
    return sayCounted(m[1]!);
  },
  // jest: "Tests:       1 failed, 31 passed, 32 total"
  (line) => {
    const m = /^Tests:\s{1,16}(.{1,120}),\s{0,4}\d{1,7} total$/u.exec(line);
    if (!m) return null;
    return sayCounted(m[1]!);
  },
  // pytest: "===== 3 passed, 1 failed, 2 skipped in 0.12s ====="
  (line) => {
    const m = /^={1,80} (.{1,160}) in \d{1,7}(?:\.\d{1,4})?s(?: \([^)]{0,40}\))? ={1,80}$/u.exec(
      line,
    );
    if (!m) return null;
    return sayCounted(m[1]!, /failed|errors?/);
  },
  // node --test: "ℹ pass 3" and "ℹ fail 0" (spec reporter), "# pass 3" / "# fail 0" (TAP)
  (line, lines, at) => {
    const m = /^(?:ℹ|#) pass (\d{1,7})$/u.exec(line);
    if (!m) return null;
    const near = lines.slice(at, at + 6).map((l) => l.trim());
    const fail = near.map((l) => /^(?:ℹ|#) fail (\d{1,7})$/u.exec(l)).find((x) => x !== null);
    const skip = near.map((l) => /^(?:ℹ|#) skipped (\d{1,7})$/u.exec(l)).find((x) => x !== null);
    return say({
      passed: Number(m[1]),
      failed: fail ? Number(fail[1]) : undefined,
      skipped: skip ? Number(skip[1]) : undefined,
    });
  },
  // the plain line: "N passed, N failed" (", N skipped" may follow)
  (line) => {
    const m = /^(?:\w{1,20}: )?(\d{1,7}) passed, (\d{1,7}) failed(?:, (\d{1,7}) skipped)?$/u.exec(
      line,
    );
    if (!m) return null;
    return say({
      passed: Number(m[1]),
      failed: Number(m[2]),
      ...(m[3] === undefined ? {} : { skipped: Number(m[3]) }),
    });
  },
  // go test: "ok  \texample.com/pkg\t0.01s" / "FAIL\texample.com/pkg\t0.01s"
  (line, lines) => {
    if (!/^(?:ok|FAIL)\s{1,4}\S{1,200}/u.test(line)) return null;
    const ok = lines.filter((l) => /^ok\s{1,4}\S/u.test(l.trim())).length;
    const failed = lines.filter((l) => /^FAIL\s{1,4}\S/u.test(l.trim())).length;
    return `${failed > 0 ? `${failed} package(s) failed, ` : ""}${ok} package(s) ok`;
  },
];

/** A shell command line as one line a person can read, clipped like an argv's. */
export function shellLine(command: string): string {
  const line = command.trim().replace(/\s+/gu, " ");
  return line.length > COMMAND_CHARS ? `${line.slice(0, COMMAND_CHARS - 1)}…` : line;
}

/** A log line's evidence: the last command and its exit, or that none ran. */
export function evidenceSuffix(evidence: readonly CommandEvidence[]): string {
  const last = evidence.at(-1);
  if (last === undefined) return " (no command run: unverified)";
  const exit = last.timedOut ? "timed out" : `exit ${last.exitCode ?? "?"}`;
  return ` (${last.command}: ${exit}${last.summary ? `, ${last.summary}` : ""})`;
}
