// Reads an instance transcript back into the conversation to resume (the session handle,
// docs/protocol.md#persistence). Complete turns are the conversation; the lines of a last turn
// without its turn-end come back apart (`partial`), so the engine can decide what to do with
// responses that were already paid for; a last line without its newline was torn by a crash and is
// dropped. Any other bad line is an error naming its line number.
//
// Messages are the parsed JSON itself, validated but never rebuilt: zod's output would put
// known keys first, and an assistant turn must go back exactly as the API returned it.

import type { Message, ModelUsage, StopReason } from "../../ports/model.js";
import { TranscriptEntrySchema } from "./transcript-entry.js";
import type { TranscriptEntry } from "./transcript-entry.js";
import { TranscriptError } from "./transcript-error.js";

/** One model response as the transcript recorded it. */
export interface RecordedResponse {
  turn: number;
  model: string;
  usage: ModelUsage;
  stop: StopReason;
  id?: string;
}

export interface LoadedTranscript {
  /** The messages of every complete turn, in order, as written. */
  messages: Message[];
  /** The last complete turn (0 when there is none); the next turn is turn + 1. */
  turn: number;
  /** Lines dropped: an interrupted turn's and a torn last line. */
  dropped: number;
  /**
   * The text up to the end of the last complete turn. When `dropped` is not 0 and the engine
   * does not carry the partial turn on, it writes this back (truncating the file) before
   * appending the next turn: appended after a torn line, the next line would be corrupt.
   */
  completeText: string;
  /** Every `response` line of the complete turns (older transcripts have none). */
  responses: RecordedResponse[];
  /**
   * The interrupted last turn (lines after the last turn-end, torn line excluded), or null:
   * its messages and the responses already paid for.
   */
  partial: { turn: number; messages: Message[]; responses: RecordedResponse[] } | null;
}

export function loadTranscript(text: string): LoadedTranscript {
  const segments = text.split("\n");
  // The text after the last "\n": empty for a well-ended file, a torn line otherwise.
  const tail = segments.pop() ?? "";

  const messages: Message[] = [];
  const responses: RecordedResponse[] = [];
  let pending: Message[] = [];
  let pendingResponses: RecordedResponse[] = [];
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
      pending.push(entry.message as Message);
      pendingLines++;
      return;
    }
    if (entry.type === "response") {
      pendingResponses.push({
        turn: entry.turn,
        model: entry.model,
        usage: entry.usage,
        stop: entry.stop,
        ...(entry.id !== undefined ? { id: entry.id } : {}),
      });
      pendingLines++;
      return;
    }
    messages.push(...pending);
    responses.push(...pendingResponses);
    pending = [];
    pendingResponses = [];
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
  return {
    messages,
    turn,
    dropped: pendingLines + tornLines,
    completeText,
    responses,
    partial:
      pendingLines > 0 ? { turn: turn + 1, messages: pending, responses: pendingResponses } : null,
  };
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
  // Validated; the parsed JSON itself is kept (see the note at the top).
  return { ok: true, entry: json as TranscriptEntry };
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
