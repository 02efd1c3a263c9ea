// The session handle lets the next Run resume its conversation prefix from cache
// (docs/protocol.md#persistence). Proven on the bytes: each request repeats the previous one
// up to its last cache breakpoint, and a request rebuilt from the transcript after a restart
// is the request the live process would have sent.

import { describe, expect, it } from "vitest";
import { createAnthropicModel } from "../../../../src/adapters/anthropic/anthropic-model.js";
import { loadTranscript } from "../../../../src/agents/transcript/load-transcript.js";
import { sumUsage } from "../../../../src/agents/transcript/sum-usage.js";
import { transcriptLines } from "../../../../src/agents/transcript/transcript-lines.js";
import type { Message, ModelResponse } from "../../../../src/ports/model.js";
import {
  API_KEY,
  apiMessage,
  apiReplies,
  baseRequest,
  useApiMocks,
} from "../../../support/anthropic/api-fixtures.js";

useApiMocks();

const MARKER = `,"cache_control":{"type":"ephemeral"}`;

/** The body up to and including its last cache marker. */
function upToLastMarker(body: string): string {
  const at = body.lastIndexOf(MARKER);
  expect(at).toBeGreaterThan(0);
  return body.slice(0, at + MARKER.length);
}

describe("a resumed instance reads the previous request's prefix from cache", () => {
  it("turn 2, built from the transcript after a restart, repeats turn 1's bytes up to its last breakpoint", async () => {
    const revised = apiMessage([{ type: "text", text: "Revised." }], "end_turn");
    const { bodies } = apiReplies(
      // Turn 1: one tool call, then the answer. The tool input comes back with its keys out
      // of canonical order, as the API may send them.
      apiMessage(
        [
          {
            type: "tool_use",
            id: "toolu_1",
            name: "read_file",
            input: { path: "ISSUE.md", encoding: "utf8" },
          },
        ],
        "tool_use",
        { input_tokens: 900, output_tokens: 40, cache_creation_input_tokens: 2000 },
      ),
      apiMessage([{ type: "text", text: "INTENT.md drafted; asking for review." }], "end_turn", {
        input_tokens: 30,
        output_tokens: 60,
        cache_read_input_tokens: 2900,
      }),
      // Turn 2, first request: sent twice, by the live process and by a restarted one.
      revised,
      revised,
    );

    const live = createAnthropicModel({ apiKey: API_KEY });
    const request = baseRequest();
    const memory: Message[] = [...request.messages];
    const responses: ModelResponse[] = [];

    // Turn 1, as the agent loop runs it.
    const r1 = await live.complete({ ...request, messages: [...memory] });
    responses.push(r1);
    memory.push({ role: "assistant", content: r1.content });
    memory.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "# Add dark mode" }],
    });
    const r2 = await live.complete({ ...request, messages: [...memory] });
    responses.push(r2);
    memory.push({ role: "assistant", content: r2.content });

    // The engine appends turn 1 to the instance's JSONL file...
    const file =
      transcriptLines(1, memory, {
        usage: sumUsage(responses.map((r) => r.usage)),
        stop: r2.stopReason,
      }).join("\n") + "\n";

    // ...turn 2 starts with the reviewer's request, in the live process...
    const next: Message = {
      role: "user",
      content: [{ type: "text", text: "Cover keyboard users too." }],
    };
    await live.complete({ ...request, messages: [...memory, next] });

    // ...and in a process that restarted and loaded the transcript.
    const loaded = loadTranscript(file);
    expect(loaded.turn).toBe(1);
    const restarted = createAnthropicModel({ apiKey: API_KEY });
    await restarted.complete({ ...request, messages: [...loaded.messages, next] });

    const [turn1First, turn1Last, turn2Live, turn2Resumed] = bodies as [
      string,
      string,
      string,
      string,
    ];
    expect(bodies).toHaveLength(4);

    // The restarted process sends exactly what the live one sent.
    expect(turn2Resumed).toBe(turn2Live);

    // Within turn 1: the second request repeats the first, marker included, up to the
    // first request's last breakpoint.
    expect(turn1Last.startsWith(upToLastMarker(turn1First))).toBe(true);

    // Across turns: turn 2 repeats turn 1's last request up to that request's last
    // breakpoint, marker included. The one difference is the older rolling marker (on the
    // first user message), which turn 2 no longer carries: markers are not part of the cache
    // key, so the prefix still hits.
    const prefix = upToLastMarker(turn1Last);
    const older = prefix.indexOf(MARKER, prefix.indexOf(`"messages":`));
    expect(older).toBeLessThan(prefix.length - MARKER.length);
    const withoutOlder = prefix.slice(0, older) + prefix.slice(older + MARKER.length);
    expect(turn2Resumed.startsWith(withoutOlder)).toBe(true);
    expect(turn2Resumed.startsWith(prefix)).toBe(false);
  });

  it("a turn of one request is repeated byte for byte, marker included, by the next turn", async () => {
    const { bodies } = apiReplies(
      apiMessage([{ type: "text", text: "Drafted." }], "end_turn"),
      apiMessage([{ type: "text", text: "Revised." }], "end_turn"),
    );

    const request = baseRequest();
    const first = await createAnthropicModel({ apiKey: API_KEY }).complete(request);
    const file =
      transcriptLines(1, [...request.messages, { role: "assistant", content: first.content }], {
        usage: first.usage,
        stop: first.stopReason,
      }).join("\n") + "\n";
    const { messages } = loadTranscript(file);
    await createAnthropicModel({ apiKey: API_KEY }).complete({
      ...request,
      messages: [...messages, { role: "user", content: [{ type: "text", text: "Shorter." }] }],
    });

    const [turn1, turn2] = bodies as [string, string];
    expect(turn2.startsWith(upToLastMarker(turn1))).toBe(true);
  });
});
