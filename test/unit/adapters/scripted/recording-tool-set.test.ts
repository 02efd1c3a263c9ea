// A recording names the tools its responses were made with (src/records/tool-sets.ts), so a
// replay gives its agents the same: absent means `classic`, the set of every recording made
// before sets had names; the recorder writes the set it recorded with, and a later verb that
// appends to the file keeps it.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createRecordingModel,
  parseRecording,
  RecordingError,
} from "../../../../src/adapters/scripted/index.js";
import { recordInto } from "../../../../src/cli/recorder.js";
import {
  emptyRecording,
  REPLAY_VERSION,
  type ReplayFile,
} from "../../../../src/cli/replay-file.js";
import { toolSetOf } from "../../../../src/records/tool-sets.js";
import type { Model } from "../../../../src/ports/model.js";

const echo: Model = {
  complete: async (request) => ({
    content: [{ type: "text", text: "ok" }],
    stopReason: "end_turn",
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: request.model,
  }),
};
const request = {
  instance: "worker@dispatch:t1",
  model: "claude-sonnet-5-5",
  system: "",
  tools: [],
  messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "go" }] }],
  maxTokens: 1024,
};

describe("a recording's tool set", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "cfa-recording-set-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("is read when named, means classic when not, and an unknown one is refused", () => {
    expect(toolSetOf(parseRecording({ version: 1, instances: {} }).toolSet)).toBe("classic");
    expect(parseRecording({ version: 1, toolSet: "bash-editor", instances: {} }).toolSet).toBe(
      "bash-editor",
    );
    expect(() => parseRecording({ version: 1, toolSet: "shell", instances: {} })).toThrow(
      RecordingError,
    );
  });

  it("is written by the recorder, and kept by a later verb that appends", async () => {
    const model = createRecordingModel(echo, { toolSet: "bash-editor" });
    await model.complete(request);
    expect(model.recording()).toMatchObject({ version: 1, toolSet: "bash-editor" });

    const path = join(dir, "session.json");
    const file: ReplayFile = {
      version: REPLAY_VERSION,
      request: { title: "t", body: "b" },
      person: "ana",
      recording: emptyRecording("bash-editor"),
      people: [],
    };
    const first = recordInto(path, file, echo);
    await first.model.complete(request);
    await first.save();
    const saved = JSON.parse(await readFile(path, "utf8")) as ReplayFile;
    expect(saved.recording).toMatchObject({ toolSet: "bash-editor" });
    // A later verb starts from the file as saved, and keeps the name.
    const later = recordInto(path, saved, echo);
    await later.model.complete(request);
    await later.save();
    const again = JSON.parse(await readFile(path, "utf8")) as {
      recording: { toolSet?: string; instances: Record<string, unknown[]> };
    };
    expect(again.recording.toolSet).toBe("bash-editor");
    expect(again.recording.instances["worker@dispatch:t1"]).toHaveLength(2);
    // A file recorded before sets had names stays unnamed.
    await writeFile(path, JSON.stringify({ ...file, recording: { version: 1, instances: {} } }));
    const old = recordInto(path, { ...file, recording: { version: 1, instances: {} } }, echo);
    await old.save();
    expect(JSON.parse(await readFile(path, "utf8")).recording).not.toHaveProperty("toolSet");
  });
});
