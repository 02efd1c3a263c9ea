import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { waitingMessage, withHeartbeat } from "../../../src/cli/heartbeat.js";
import type { Model, ModelResponse } from "../../../src/ports/model.js";

const response: ModelResponse = {
  content: [{ type: "text", text: "ok" }],
  stopReason: "end_turn",
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  model: "m",
};
const request = (instance: string) => ({
  instance,
  model: "m",
  system: "",
  tools: [],
  messages: [],
  maxTokens: 10,
});

describe("withHeartbeat (long waits show progress)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("says who waits on the model once a period passes without other output", async () => {
    let answer: (r: ModelResponse) => void = () => {};
    const slow: Model = { complete: () => new Promise((resolve) => (answer = resolve)) };
    const said: string[] = [];
    const beat = withHeartbeat(slow, (t) => said.push(t), {
      everyMs: 10_000,
      now: () => Date.now(),
    });
    const pending = beat.model.complete(request("intent-lead@state:intent:1"));
    await vi.advanceTimersByTimeAsync(9_000);
    expect(said).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(said).toEqual(["… waiting on the model for intent-lead@state:intent:1 (10 s)"]);
    beat.touch();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(said).toHaveLength(1);
    answer(response);
    await expect(pending).resolves.toEqual(response);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(said).toHaveLength(1); // nothing in flight: silence
    beat.stop();
  });
});

describe("waitingMessage", () => {
  it("names who waits and for how long, from the oldest call", () => {
    expect(
      waitingMessage(
        [
          { instance: "worker@dispatch:b", since: 20_000 },
          { instance: "worker@dispatch:a", since: 5_000 },
        ],
        50_000,
      ),
    ).toBe("… waiting on the model for worker@dispatch:a, worker@dispatch:b (45 s)");
  });

  it("abbreviates many instances", () => {
    const many = ["a", "b", "c", "d", "e"].map((x) => ({
      instance: `worker@dispatch:${x}`,
      since: 0,
    }));
    expect(waitingMessage(many, 1000)).toContain("worker@dispatch:c and 2 more (1 s)");
  });
});
