// Reads an instance transcript back into the conversation to resume (seed 000 §11, the
// session handle). Only complete turns count: lines after the last turn-end belong to a turn
// a crash interrupted, and a last line without its newline was torn by the crash; both are
// dropped. Any other bad line is an error naming its line number.

import type { Message } from "../../ports/model.js";
import { normaliseMessage } from "./normalise-message.js";
import { TranscriptEntrySchema } from "./transcript-entry.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import { TranscriptError } from "./transcript-error.js";

export interface LoadedTranscript {
  /** The messages of every complete turn, in order, normalised. */
  messages: Message[];
  /** The last complete turn (0 when there is none); the next turn is turn + 1. */
  turn: number;
  /** Lines dropped: an interrupted turn's and a torn last line. */
  dropped: number;
  /**
   * The text up to the end of the last complete turn. When `dropped` is not 0 the engine
   * must write this back (truncating the file) before appending the next turn: appended
   * after a torn line, the next line would be corrupt, and appended after an interrupted
   * turn's lines, the retried turn would read as the interrupted one's continuation.
   */
  completeText: string;
}

export function loadTranscript(text: string): LoadedTranscript {
  const segments = text.split("\n");
  // The text after the last "\n": empty for a well-ended file, a torn line otherwise.
  const tail = segments.pop() ?? "";

  const messages: Message[] = [];
  let pending: Message[] = [];
  let pendingLines = 0;
  let turn = 0;
  let completeLines = 0;

  const accept = (entry: TranscriptEntry, lineNumber: number): void => {
    if (entry.turn !== turn + 1) {
      throw new TranscriptError(
        lineNumber,
        `turn ${entry.turn} cannot follow complete turn ${turn} (expected ${turn + 1})`,
      );
    }
    if (entry.type === "message") {
      pending.push(normaliseMessage(entry.message));
      pendingLines++;
      return;
    }
    messages.push(...pending);
    pending = [];
    pendingLines = 0;
    turn = entry.turn;
    completeLines = lineNumber;
  };

  segments.forEach((segment, index) => {
    const line = stripCr(segment);
    if (line.trim().length === 0) return;
    const entry = parseEntry(line);
    if (!entry.ok) throw new TranscriptError(index + 1, entry.problem, { cause: entry.cause });
    accept(entry.entry, index + 1);
  });

  let tornLines = 0;
  const lastLine = stripCr(tail);
  if (lastLine.trim().length > 0) {
    const entry = parseEntry(lastLine);
    // A complete entry that only lacks its newline is kept; anything else is the torn write.
    if (entry.ok) accept(entry.entry, segments.length + 1);
    else tornLines = 1;
  }

  const completeText = text.slice(0, endOfLine(text, completeLines));
  return { messages, turn, dropped: pendingLines + tornLines, completeText };
}

type Parsed =
  { ok: true; entry: TranscriptEntry } | { ok: false; problem: string; cause?: unknown };

function parseEntry(line: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (cause) {
    return { ok: false, problem: "not JSON", cause };
  }
  const result = TranscriptEntrySchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where =
      issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    return { ok: false, problem: `not a transcript entry${where}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, entry: result.data };
}

/** The offset just after line `n` (1-based) and its newline; the end of a last line without one. */
function endOfLine(text: string, n: number): number {
  let end = 0;
  for (let line = 0; line < n; line++) {
    const newline = text.indexOf("\n", end);
    if (newline === -1) return text.length;
    end = newline + 1;
  }
  return end;
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
