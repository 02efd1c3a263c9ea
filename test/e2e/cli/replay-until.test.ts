// `cfa replay <file> --until <gate>` stops where a person would take over: at that gate,
// exit 0, with the next-step lines a live job prints. `cfa approve` then carries the job on
// with a key: the real Anthropic adapter and SDK over HTTP to the fake Messages API, which
// answers the rest of the same recording (the demo's), to the next gate.

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { captureIo, type CapturedIo } from "../../support/cli/capture-io.js";
import { waitsOn } from "../../support/cli/waiting-job.js";
import { DEMO_PATH } from "../../support/fake-messages-api/demo-run.js";
import {
  recordedJobApi,
  type RecordedJobApi,
} from "../../support/fake-messages-api/recorded-job.js";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
} from "../../support/fake-messages-api/server.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

let root: string;
let server: FakeMessagesApi;
let api: RecordedJobApi;
let replay: CapturedIo;
let replayCode: number;
const repo = () => join(root, "replay", "repo");
const env = () => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME,
  XDG_CACHE_HOME: join(root, "cache"),
});

beforeAll(async () => {
  root = tempDir("cfa-replay-until-");
  const demo = JSON.parse(await readFile(DEMO_PATH, "utf8")) as { recording: never };
  api = recordedJobApi(demo.recording, { continuesReplay: true });
  server = await startFakeMessagesApi((request) => api.respond(request));
  replay = captureIo({ cwd: root, env: env() });
  replayCode = await main(
    ["replay", DEMO_PATH, "--until", "q1", "--dir", join(root, "replay")],
    replay,
  );
}, bound(120_000));
afterAll(async () => {
  await server.close();
  removeDir(root);
});

describe("cfa replay --until", () => {
  it("stops cleanly at the gate asked for, with the next step a live job prints", () => {
    expect(replayCode).toBe(0);
    expect(replay.err()).toBe("");
    expect(replay.out()).toContain(
      `INTENT — waiting on you to review INTENT.md: \`cfa approve 1 --repo ${repo()}\` or \`cfa reject 1 --comment "…" --repo ${repo()}\``,
    );
    expect(replay.out()).not.toContain("▶ @"); // no recorded action of the person was applied
  });

  it("cfa approve then carries it on with a key, over the API, to the next gate", async () => {
    const io = captureIo({
      cwd: root,
      env: {
        ...env(),
        ANTHROPIC_API_KEY: "sk-ant-api03-key-for-the-local-server",
        ANTHROPIC_BASE_URL: server.url,
      },
      applyOrder: "started",
    });
    const code = await main(["approve", "1", "--repo", repo()], io);
    expect(code).toBe(0);
    expect(io.out()).toContain("PLAN — waiting on you to review PLAN.md");
    expect(api.conformance.problems).toEqual([]);
    expect(api.charged.length).toBeGreaterThan(0);
    // The intent lead's closing turn and the project lead's, each step once, none replayed.
    expect(new Set(api.charged).size).toBe(api.charged.length);
    expect(api.charged.some((c) => c.startsWith("project-lead"))).toBe(true);
    expect(git(repo(), "log", "-1", "--format=%s", "cfa/1")).not.toBe("");
  });

  it("a gate the replay never reaches: exit 1, naming the gates it did", async () => {
    const small = join(root, "one-gate.json");
    await writeFile(small, JSON.stringify(waitsOn("gate")));
    const io = captureIo({ cwd: root, env: env() });
    expect(await main(["replay", small, "--until", "q9", "--dir", join(root, "never")], io)).toBe(
      1,
    );
    expect(io.err()).toContain("cfa: the replay never waited at gate q9 (its gates: q1);");
  });

  it("--until that is no gate id: a usage error", async () => {
    const io = captureIo({ cwd: root, env: env() });
    expect(await main(["replay", DEMO_PATH, "--until", "INTENT"], io)).toBe(2);
    expect(io.err()).toContain(
      '--until must be a gate id such as q1 (the log shows it: "ASSERT q1"), got "INTENT"',
    );
  });
});
