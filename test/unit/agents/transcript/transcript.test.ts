// The session handle (docs/protocol.md#persistence). A transcript resumes only complete
// turns, so a crash loses at most the turn in flight.

import { describe, expect, it } from "vitest";
import { loadTranscript } from "../../../../src/agents/transcript/load-transcript.js";
import { normaliseMessage } from "../../../../src/agents/transcript/normalise-message.js";
import { sumUsage, ZERO_USAGE } from "../../../../src/agents/transcript/sum-usage.js";
import { TranscriptError } from "../../../../src/agents/transcript/transcript-error.js";
import {
  responseLine,
  transcriptLines,
} from "../../../../src/agents/transcript/transcript-lines.js";
import type { Message, ModelUsage } from "../../../../src/ports/model.js";

const usage: ModelUsage = {
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 2,
  cacheWriteTokens: 1,
};
const say = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const reply = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

const file = (...chunks: string[][]): string =>
  chunks.map((lines) => lines.join("\n") + "\n").join("");

const turn1 = transcriptLines(1, [say("draft it"), reply("drafted")], { usage, stop: "end_turn" });
const turn2 = transcriptLines(2, [say("revise"), reply("revised")], { usage, stop: "end_turn" });

function errorOf(text: string): TranscriptError {
  let error: unknown;
  try {
    loadTranscript(text);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(TranscriptError);
  return error as TranscriptError;
}

describe("transcript lines", () => {
  it("write one line per message, blocks exactly as given, and a turn-end with usage and stop", () => {
    // An assistant turn is kept as the API returned it, keys in its order: the API wants each
    // response sent back exactly, and a re-ordered one moves the cache prefix.
    const call: Message = {
      role: "assistant",
      content: [{ type: "tool_use", name: "read_file", id: "t1", input: { path: "a", at: 1 } }],
    };
    expect(transcriptLines(3, [call], { usage, stop: "tool_use" })).toEqual([
      '{"type":"message","turn":3,"message":{"role":"assistant","content":[{"type":"tool_use","name":"read_file","id":"t1","input":{"path":"a","at":1}}]}}',
      '{"type":"turn-end","turn":3,"usage":{"inputTokens":10,"outputTokens":5,"cacheReadTokens":2,"cacheWriteTokens":1},"stop":"tool_use"}',
    ]);
    expect(transcriptLines(1, [say("x")])).toHaveLength(1);
    expect(() => transcriptLines(0, [])).toThrow(/turn must be a positive integer/);
  });
});

describe("loading a transcript", () => {
  it("gives back the messages of complete turns, normalised, and the last turn", () => {
    const loaded = loadTranscript(file(turn1, turn2));
    expect(loaded.messages).toEqual([
      say("draft it"),
      reply("drafted"),
      say("revise"),
      reply("revised"),
    ]);
    expect(loaded.turn).toBe(2);
    expect(loaded.dropped).toBe(0);
    expect(loadTranscript("")).toEqual({
      messages: [],
      turn: 0,
      dropped: 0,
      completeText: "",
      responses: [],
      partial: null,
    });
  });

  it("drops a torn last line", () => {
    const whole = file(turn1, turn2);
    const torn = whole + turn2[0]!.slice(0, 25);
    const loaded = loadTranscript(torn);
    expect(loaded.turn).toBe(2);
    expect(loaded.messages).toHaveLength(4);
    expect(loaded.dropped).toBe(1);
    expect(loaded.completeText).toBe(whole);
  });

  it("keeps an incomplete turn apart: its messages and the responses already paid for", () => {
    const paid = responseLine(2, { model: "claude-sonnet-5-5", usage, stopReason: "tool_use" });
    const interrupted = [...transcriptLines(2, [say("revise"), reply("half")]), paid];
    const loaded = loadTranscript(file(turn1, interrupted));
    expect(loaded.turn).toBe(1);
    expect(loaded.messages).toEqual([say("draft it"), reply("drafted")]);
    expect(loaded.dropped).toBe(3);
    expect(loaded.completeText).toBe(file(turn1));
    expect(loaded.partial).toEqual({
      turn: 2,
      messages: [say("revise"), reply("half")],
      responses: [{ turn: 2, model: "claude-sonnet-5-5", usage, stop: "tool_use" }],
    });
  });

  it("records each response on its own line with the model that answered, and gives them back", () => {
    const oneHour = { ...usage, cacheWrite1hTokens: 1 };
    const line = responseLine(1, {
      model: "claude-haiku-5-5",
      usage: oneHour,
      stopReason: "end_turn",
      id: "msg_9",
    });
    expect(line).toBe(
      '{"type":"response","turn":1,"model":"claude-haiku-5-5","usage":{"inputTokens":10,"outputTokens":5,"cacheReadTokens":2,"cacheWriteTokens":1,"cacheWrite1hTokens":1},"stop":"end_turn","id":"msg_9"}',
    );
    const loaded = loadTranscript(file([turn1[0]!, turn1[1]!, line, turn1[2]!]));
    expect(loaded.responses).toEqual([
      { turn: 1, model: "claude-haiku-5-5", usage: oneHour, stop: "end_turn", id: "msg_9" },
    ]);
    expect(loaded.partial).toBeNull();
  });

  it("drops an incomplete turn ending in a torn line, and resumes cleanly after truncation", () => {
    const interrupted = file(turn1, transcriptLines(2, [say("revise")])) + '{"message":{"cont';
    const loaded = loadTranscript(interrupted);
    expect(loaded.turn).toBe(1);
    expect(loaded.dropped).toBe(2);
    // The engine writes completeText back, then appends the retried turn.
    const resumed = loadTranscript(loaded.completeText + file(turn2));
    expect(resumed.turn).toBe(2);
    expect(resumed.messages).toHaveLength(4);
  });

  it("keeps a complete last entry that only lacks its newline", () => {
    const loaded = loadTranscript(file(turn1) + turn2.join("\n"));
    expect(loaded.turn).toBe(2);
    expect(loaded.dropped).toBe(0);
  });

  it("rejects a bad line in the middle with its line number", () => {
    const notJson = errorOf(file(turn1, ["{oops"], turn2));
    expect(notJson.name).toBe("TranscriptError");
    expect(notJson.line).toBe(4);
    expect(notJson.message).toMatch(/^cfa\/transcript: line 4: not JSON/);

    const badShape = errorOf(
      file(turn1, ['{"type":"message","turn":2,"message":{"role":"robot","content":[]}}'], turn2),
    );
    expect(badShape.line).toBe(4);
    expect(badShape.message).toContain("not a transcript entry at message");

    // A bad last line that does end with a newline is corruption, not a torn write.
    expect(errorOf(file(turn1, ["{oops"])).line).toBe(4);
  });

  it("rejects a turn out of sequence", () => {
    const skipped = errorOf(
      file(turn1, transcriptLines(3, [say("x")], { usage, stop: "end_turn" })),
    );
    expect(skipped.line).toBe(4);
    expect(skipped.message).toContain("turn 3 cannot follow complete turn 1");
    expect(errorOf(file(turn1, turn1)).message).toContain("turn 1 cannot follow complete turn 1");
  });

  it("ignores blank lines and CRLF line ends", () => {
    const text = file(turn1).replace(/\n/g, "\r\n") + "\n" + file(turn2);
    expect(loadTranscript(text).turn).toBe(2);
  });

  it("keeps keys in the order given on the way in and out, and drops undefined fields", () => {
    const messy = {
      content: [{ is_error: undefined, content: "ok", tool_use_id: "t1", type: "tool_result" }],
      role: "user",
    } as unknown as Message;
    expect(JSON.stringify(normaliseMessage(messy))).toBe(
      '{"content":[{"content":"ok","tool_use_id":"t1","type":"tool_result"}],"role":"user"}',
    );
    // An assistant block as the API sent it: unknown fields, an own __proto__ key in a tool
    // input and unsorted keys all come back exactly.
    const raw =
      '{"type":"message","turn":1,"message":{"role":"assistant","content":[{"type":"text","text":"hi","citations":null},{"type":"tool_use","id":"t1","name":"edit_file","input":{"path":"a","__proto__":{"x":1},"new_text":"b","old_text":"c"},"caller":{"type":"direct"}},{"type":"opaque","block":{"type":"server_tool_use","id":"s1"}}]}}';
    const end = transcriptLines(1, [], { usage, stop: "end_turn" });
    const loaded = loadTranscript(file([raw], end));
    expect(JSON.stringify(loaded.messages[0])).toBe(
      JSON.stringify((JSON.parse(raw) as { message: unknown }).message),
    );
    expect(transcriptLines(1, loaded.messages)[0]).toBe(raw);
  });

  it("still loads a transcript written with sorted keys (by older versions), as it was written", () => {
    const old =
      '{"message":{"content":[{"id":"t1","input":{"a":1,"b":2},"name":"read_file","type":"tool_use"}],"role":"assistant"},"turn":1,"type":"message"}\n' +
      '{"stop":"tool_use","turn":1,"type":"turn-end","usage":{"cacheReadTokens":0,"cacheWriteTokens":0,"inputTokens":1,"outputTokens":1}}\n';
    const loaded = loadTranscript(old);
    expect(loaded.turn).toBe(1);
    expect(JSON.stringify(loaded.messages[0])).toBe(
      '{"content":[{"id":"t1","input":{"a":1,"b":2},"name":"read_file","type":"tool_use"}],"role":"assistant"}',
    );
  });
});

describe("usage", () => {
  it("sums over a turn's responses", () => {
    expect(sumUsage([])).toEqual(ZERO_USAGE);
    expect(sumUsage([usage, usage, { ...ZERO_USAGE, outputTokens: 7 }])).toEqual({
      inputTokens: 20,
      outputTokens: 17,
      cacheReadTokens: 4,
      cacheWriteTokens: 2,
    });
    expect(sumUsage([usage, { ...usage, cacheWrite1hTokens: 1 }]).cacheWrite1hTokens).toBe(1);
  });
});
