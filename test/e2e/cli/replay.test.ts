// `cfa replay`: a recording re-runs the engine in a fresh repository without a model
// (docs/protocol.md#recorded-decisions: replay is cache-only), the same way every time; a replay
// that leaves the recording says so and fails.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { call, expecting, recording, say, tools } from "../../support/engine/script.js";
import { finish, gate, writeArtifact } from "../../support/engine/recordings.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { captureIo } from "../../support/cli/capture-io.js";

const ART = ".cfa/jobs/1";

let root: string;
beforeAll(async () => {
  root = tempDir("cfa-replay-test-");
});
afterAll(() => removeDir(root));

/** A question answered, then the job withdrawn: no gate, so no commit ids in the bus. */
function questionThenWithdraw() {
  return {
    version: 1,
    request: { title: "Greet", body: "Write a greeting" },
    person: "ana",
    files: { "README.md": "# greet\n" },
    recording: recording({
      "intent-lead@state:intent:1": [
        writeArtifact("INTENT.md", "# Intent\n"),
        tools(call("ask_question", { kind: "question", text: "Which greeting?" })),
        expecting(writeArtifact("INTENT.md", "# Intent\n\nHello.\n"), "Hello"),
        tools(call("ask_question", { kind: "question", text: "Anything else?" })),
      ],
    }),
    people: [
      { action: "answer", text: "Hello" },
      { action: "withdraw", text: "not needed after all" },
    ],
  };
}

/** Pause and resume recorded: paused at a question, answered while paused, resumed, then withdrawn. */
function pausedAndResumed() {
  const file = questionThenWithdraw();
  return {
    ...file,
    people: [
      { action: "pause", text: "until the meeting" },
      { action: "answer", text: "Hello" },
      { action: "resume" },
      { action: "withdraw", text: "not needed after all" },
    ],
  };
}

/** A gate with a requested change, then an approval, then a withdraw in PLAN. */
function gated() {
  return {
    version: 1,
    request: { title: "Greet", body: "Write a greeting" },
    person: "ana",
    config: "escalation:\n  INTENT: always\n",
    recording: recording({
      "intent-lead@state:intent:1": [
        writeArtifact("INTENT.md", "# Intent\n"),
        gate("INTENT.md", "ok?"),
        expecting(writeArtifact("INTENT.md", "# Intent\n\nFrench.\n"), "changes requested by @ana"),
        gate("INTENT.md", "ok now?"),
        finish("APPROVED_INTENT", "approved"),
      ],
      "project-lead@state:plan:1": [writeArtifact("PLAN.md", "# Plan\n"), gate("PLAN.md", "plan?")],
    }),
    people: [
      { action: "reject", text: "In French, please." },
      { action: "approve" },
      { action: "withdraw" },
    ],
  };
}

async function replay(name: string, file: unknown) {
  const path = join(root, `${name}.json`);
  await writeFile(path, JSON.stringify(file));
  const dir = join(root, `${name}-${Math.random().toString(36).slice(2)}`);
  const io = captureIo({ cwd: root });
  const code = await main(["replay", path, "--dir", dir], io);
  const repo = join(dir, "repo");
  const show = (p: string) => git(repo, "show", `cfa/1:${ART}/${p}`);
  return { code, io, repo, show };
}

/** Replays `file` twice, each into a new folder: both succeed, the first saying nothing amiss. */
async function replayTwice(name: string, file: unknown) {
  const first = await replay(name, file);
  const second = await replay(name, file);
  expect(first.io.err()).toBe("");
  expect([first.code, second.code]).toEqual([0, 0]);
  return { first, second };
}

/** Commit ids come from git's wall-clock commit times; everything else must match exactly. */
const sameCommits = (text: string) => {
  const seen = new Map<string, string>();
  return text.replace(/\b[0-9a-f]{40}\b/g, (sha) => {
    if (!seen.has(sha)) seen.set(sha, `<commit ${seen.size + 1}>`);
    return seen.get(sha)!;
  });
};

describe("cfa replay", () => {
  it("replays a recording to the same records, byte for byte, every time", async () => {
    const { first, second } = await replayTwice("question", questionThenWithdraw());
    expect(first.io.out()).toContain('▶ @ana answers job #1: "Hello"');
    expect(first.io.out()).toContain("WITHDRAWN — not needed after all.");
    expect(JSON.parse(first.show("state.json")).state).toBe("WITHDRAWN");
    expect(first.show("bus.jsonl")).not.toMatch(/[0-9a-f]{40}/);
    expect(second.show("bus.jsonl")).toBe(first.show("bus.jsonl"));
    expect(second.show("state.json")).toBe(first.show("state.json"));
    const transcript = "instances/intent-lead@state~intent~1.jsonl";
    expect(second.show(transcript)).toBe(first.show(transcript));
  });

  it("replays a paused-and-resumed job byte for byte: the answer given while paused acts on resume", async () => {
    const { first, second } = await replayTwice("paused", pausedAndResumed());
    expect(first.io.out()).toContain('▶ @ana pauses job #1: "until the meeting"');
    expect(first.io.out()).toContain("▶ @ana resumes job #1");
    const bus = first.show("bus.jsonl");
    const types = bus
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => (JSON.parse(l) as { type: string }).type);
    // Paused, then the answer recorded while paused, then resumed: the lead ran after that.
    expect(types.indexOf("paused")).toBeLessThan(types.indexOf("human-reply"));
    expect(types.indexOf("human-reply")).toBeLessThan(types.indexOf("resumed"));
    expect(types.lastIndexOf("turn-end")).toBeGreaterThan(types.indexOf("resumed"));
    expect(JSON.parse(first.show("state.json")).state).toBe("WITHDRAWN");
    expect(second.show("bus.jsonl")).toBe(bus);
    expect(second.show("state.json")).toBe(first.show("state.json"));
  });

  it("replays gates the same way, up to the commit ids git derives from the time", async () => {
    const { first, second } = await replayTwice("gated", gated());
    const state = JSON.parse(first.show("state.json")) as {
      state: string;
      history: { action: string }[];
    };
    expect(state.state).toBe("WITHDRAWN");
    expect(state.history.map((h) => h.action)).toEqual(["APPROVED_INTENT", "WITHDRAW"]);
    expect(first.show("bus.jsonl")).toMatch(/[0-9a-f]{40}/);
    expect(sameCommits(second.show("bus.jsonl"))).toBe(sameCommits(first.show("bus.jsonl")));
    expect(sameCommits(second.show("state.json"))).toBe(sameCommits(first.show("state.json")));
  });

  it("stops at the first request the recording does not expect, naming it, and fails", async () => {
    const file = questionThenWithdraw();
    const steps = file.recording.instances["intent-lead@state:intent:1"]!;
    steps[2] = expecting(steps[2]!, "Bonjour");
    const { code, io } = await replay("diverging", file);
    expect(code).toBe(1);
    expect(io.err()).toContain("cfa: the replay diverged from the recording:");
    expect(io.err()).toContain("intent-lead@state:intent:1");
    expect(io.err()).toContain('"Bonjour"');
  });

  it("fails when recorded responses were never asked for", async () => {
    const file = questionThenWithdraw();
    (file.recording.instances as Record<string, unknown[]>)["worker@dispatch:ghost"] = [say("boo")];
    const { code, io } = await replay("unplayed", file);
    expect(code).toBe(1);
    expect(io.err()).toContain(
      "recorded responses were never asked for: worker@dispatch:ghost (1)",
    );
  });

  it("refuses a file that is not a replay file, and a folder that is not empty", async () => {
    const bad = join(root, "bad.json");
    await writeFile(bad, JSON.stringify({ version: 1, request: { title: "x", body: "" } }));
    const io = captureIo({ cwd: root });
    expect(await main(["replay", bad], io)).toBe(1);
    expect(io.err()).toContain("is not a cfa replay file");
    const missing = captureIo({ cwd: root });
    expect(await main(["replay", join(root, "nope.json")], missing)).toBe(1);
    expect(missing.err()).toBe(
      `cfa: cannot read ${join(root, "nope.json")}: no such file or folder (ENOENT).\n`,
    );
    const folder = captureIo({ cwd: root });
    expect(await main(["replay", root], folder)).toBe(1);
    expect(folder.err()).toBe(`cfa: cannot read ${root}: it is a folder, not a file (EISDIR).\n`);
    const full = captureIo({ cwd: root });
    const path = join(root, "ok.json");
    await writeFile(path, JSON.stringify(questionThenWithdraw()));
    expect(await main(["replay", path, "--dir", root], full)).toBe(1);
    expect(full.err()).toContain("is not empty");
    const file = captureIo({ cwd: root });
    expect(await main(["replay", path, "--dir", path], file)).toBe(1);
    expect(file.err()).toBe(
      `cfa: ${path} is not a folder: a replay builds its repository in an empty folder.\n`,
    );
    const system = captureIo({ cwd: root });
    expect(await main(["replay", path, "--dir", "/dev/shm/cfa-replay-test"], system)).toBe(1);
    expect(system.err()).toContain("is under /dev, /proc or /sys, where agents may not work");
  });
});
