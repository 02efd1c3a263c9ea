// The lines to append to an instance transcript for (part of) one turn. Pure: the engine
// appends them, each followed by "\n", in one write, so a crash leaves at most a torn last
// line, which loadTranscript drops.

import type { Message, ModelUsage, StopReason } from "../../ports/model.js";
import { canonicalLine } from "../../protocol/canonical-json.js";
import { normaliseMessage } from "./normalise-message.js";
import type { TranscriptEntry } from "./transcript-entry.js";

export interface TurnEnd {
  /** The turn's usage, summed over its responses (see sumUsage). */
  usage: ModelUsage;
  /** The stop reason of the turn's last response. */
  stop: StopReason;
}

/**
 * One line per message of `turn`, then a turn-end line when `end` is given (a turn may be
 * written as it goes and closed later). Lines carry no newline.
 */
export function transcriptLines(
  turn: number,
  messages: readonly Message[],
  end?: TurnEnd,
): string[] {
  if (!Number.isInteger(turn) || turn < 1) {
    throw new RangeError(`cfa/transcript: turn must be a positive integer, got ${turn}`);
  }
  const entries: TranscriptEntry[] = messages.map((message) => ({
    type: "message",
    turn,
    message: normaliseMessage(message),
  }));
  if (end !== undefined) entries.push({ type: "turn-end", turn, usage: end.usage, stop: end.stop });
  return entries.map((entry) => canonicalLine(entry));
}
