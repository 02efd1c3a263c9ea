// The lines to append to an instance transcript. Pure: the engine appends them, each followed
// by "\n", in one write, so a crash leaves at most a torn last line, which loadTranscript
// drops. Messages are written as given (keys never re-ordered: an assistant turn is kept
// exactly as the API returned it); the entry's own fields come in a fixed order.

import type { Message, ModelResponse, ModelUsage, StopReason } from "../../ports/model.js";
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
  checkTurn(turn);
  const entries: TranscriptEntry[] = messages.map((message) => ({
    type: "message",
    turn,
    message: normaliseMessage(message),
  }));
  if (end !== undefined) entries.push({ type: "turn-end", turn, usage: end.usage, stop: end.stop });
  return entries.map((entry) => JSON.stringify(entry));
}

/**
 * The line recording one model response of `turn`: its own usage, the model that answered
 * and why it stopped. Written right after the response's assistant message (if it had
 * content), so every cap sees the response even if the turn never ends.
 */
export function responseLine(
  turn: number,
  response: Pick<ModelResponse, "model" | "usage" | "stopReason" | "id">,
): string {
  checkTurn(turn);
  const entry: TranscriptEntry = {
    type: "response",
    turn,
    model: response.model,
    usage: response.usage,
    stop: response.stopReason,
    ...(response.id !== undefined ? { id: response.id } : {}),
  };
  return JSON.stringify(entry);
}

function checkTurn(turn: number): void {
  if (!Number.isInteger(turn) || turn < 1) {
    throw new RangeError(`cfa/transcript: turn must be a positive integer, got ${turn}`);
  }
}
