// The response journal (src/engine/response-journal.ts): a redone request gets the recorded
// response, exactly as received; what a crash tore is skipped; what is carried in state.json
// comes back; accounting is by number.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  journalPath,
  requestDigest,
  ResponseJournal,
  type JournalEntry,
} from "../../../../src/engine/turn/response-journal.js";
import type { ModelRequest, ModelResponse } from "../../../../src/ports/model.js";

const request = (text: string): ModelRequest => ({
  instance: "worker@dispatch:a",
  model: "claude-x",
  system: "sys",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text }] }],
  maxTokens: 100,
});
const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
const response: ModelResponse = {
  // Keys deliberately not sorted: a replay must keep them in this order.
  content: [
    {
      type: "tool_use",
      id: "t1",
      name: "edit_file",
      input: { path: "a", old_text: "x", new_text: "y" },
    },
  ],
  stopReason: "tool_use",
  usage,
  model: "claude-x",
};
const entry = (seq: number, text: string): JournalEntry => ({
  seq,
  instance: "worker@dispatch:a",
  digest: requestDigest(request(text)),
  costUsd: 0.5,
  at: "2026-11-22T10:00:00.000Z",
  response,
});

let area: string;
beforeEach(async () => {
  area = await mkdtemp(join(tmpdir(), "cfa-journal-"));
});
afterEach(async () => rm(area, { recursive: true, force: true }));
const warnings: string[] = [];
const warn = (w: string) => warnings.push(w);

describe("ResponseJournal", () => {
  it("replays a recorded response for the same request, once, with its keys in the order received", async () => {
    const journal = await ResponseJournal.open(area, [], warn);
    await journal.record(entry(1, "hello"));
    const reopened = await ResponseJournal.open(area, [], warn);
    expect(reopened.take(request("other"))).toBeNull();
    const replayed = reopened.take(request("hello"));
    expect(JSON.stringify(replayed?.response.content[0])).toBe(
      '{"type":"tool_use","id":"t1","name":"edit_file","input":{"path":"a","old_text":"x","new_text":"y"}}',
    );
    expect(reopened.take(request("hello"))).toBeNull();
  });

  it("the digest is of everything sent, not of key order", () => {
    const a = request("hello");
    const first = a.messages[0]!;
    if (first.role !== "user") throw new Error("test: a user message");
    const b: ModelRequest = { ...a, messages: [{ content: first.content, role: "user" }] };
    expect(requestDigest(a)).toBe(requestDigest(b));
    expect(requestDigest(a)).not.toBe(requestDigest({ ...a, system: "sys2" }));
    expect(requestDigest(a)).not.toBe(requestDigest({ ...a, instance: "worker@dispatch:b" }));
  });

  it("skips a torn last line and a line that is not an entry", async () => {
    const good = JSON.stringify(entry(1, "hello"));
    await writeFile(journalPath(area), `${good}\n{"seq":2,"instance":"x"}\n{"seq":3,"ins`);
    warnings.length = 0;
    const journal = await ResponseJournal.open(area, [], warn);
    expect(journal.unaccounted(0).map((e) => e.seq)).toEqual([1]);
    expect(warnings).toHaveLength(2);
  });

  it("takes back what another runner carried in state.json, once, and says what is unaccounted", async () => {
    const first = await ResponseJournal.open(area, [], warn);
    await first.record(entry(4, "a"));
    await first.record(entry(5, "b"));
    const carried = first.carry();
    const other = await mkdtemp(join(tmpdir(), "cfa-journal-"));
    try {
      const journal = await ResponseJournal.open(other, [...carried, ...carried], warn);
      expect(journal.unaccounted(4).map((e) => e.seq)).toEqual([5]);
      expect(journal.take(request("a"))?.seq).toBe(4);
      // Written into this area, so a crash of this runner keeps them too.
      const lines = (await readFile(journalPath(other), "utf8")).trim().split("\n");
      expect(lines).toHaveLength(2);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("clear forgets everything, on disk too", async () => {
    const journal = await ResponseJournal.open(area, [], warn);
    await journal.record(entry(1, "a"));
    await journal.clear();
    expect(journal.take(request("a"))).toBeNull();
    const reopened = await ResponseJournal.open(area, [], warn);
    expect(reopened.unaccounted(0)).toEqual([]);
  });
});
