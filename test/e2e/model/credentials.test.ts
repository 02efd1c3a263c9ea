// A mistyped key stops the job live, not in FAILURE (the installation's fault, not the job's).
// `cfa run` with the real Anthropic adapter and SDK over HTTP to a local Messages API that answers
// 401 (authentication_error, https://platform.claude.com/docs/en/api/errors): the command says what
// to set and that `cfa resume` carries on, exits 1, spends no retry budget and leaves the job in
// INTENT; with the key fixed (the server now answers the recorded demo job), `cfa resume 1` carries
// the very job on to its first gate.

import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { toolSetOf } from "../../../src/records/tool-sets.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { DEMO_PATH } from "../../support/fake-messages-api/demo-run.js";
import { recordedJobApi } from "../../support/fake-messages-api/recorded-job.js";
import {
  startFakeMessagesApi,
  type FakeMessagesApi,
} from "../../support/fake-messages-api/server.js";
import { bound } from "../../support/time-bound.js";

interface DemoFile {
  request: { title: string; body: string };
  files: Record<string, string>;
  recording: { toolSet?: string; instances: Record<string, unknown[]> };
}

const KEY = "sk-ant-api03-mistyped-key-for-the-local-server";

describe("a refused key stops the job live; cfa resume carries it on", () => {
  let server: FakeMessagesApi;
  let root: string;
  let refusing = true;
  const codes: number[] = [];
  const outs: string[] = [];
  const states: { state: string; failures: number; engine?: { apiWait?: unknown } }[] = [];
  let refusedRequests = 0;

  beforeAll(async () => {
    const demo = JSON.parse(await readFile(DEMO_PATH, "utf8")) as DemoFile;
    const api = recordedJobApi(demo.recording as never, { faults: [] });
    server = await startFakeMessagesApi((request) => {
      if (!refusing) return api.respond(request);
      refusedRequests += 1;
      return {
        kind: "error",
        status: 401,
        type: "authentication_error",
        message: "invalid x-api-key",
      };
    });
    root = await mkdtemp(join(tmpdir(), "cfa-credentials-"));
    const repo = join(root, "repo");
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
    await mkdir(repo);
    git("init", "--quiet", "--initial-branch=main");
    git("config", "user.name", "ana");
    git("config", "user.email", "ana@example.com");
    git("config", "commit.gpgsign", "false");
    for (const [path, text] of Object.entries(demo.files)) {
      await mkdir(dirname(join(repo, path)), { recursive: true });
      await writeFile(join(repo, path), text);
    }
    git("add", "-A");
    git("commit", "--quiet", "-m", "initial");
    const io = () =>
      captureIo({
        cwd: repo,
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: process.env.HOME,
          ANTHROPIC_API_KEY: KEY,
          ANTHROPIC_BASE_URL: server.url,
        },
        workRoot: join(root, "work"),
        // The agents get the tools the recorded responses call.
        toolSet: toolSetOf(demo.recording.toolSet),
      });
    const state = () =>
      JSON.parse(git("show", "cfa/1:.cfa/jobs/1/state.json")) as (typeof states)[number];

    const first = io();
    codes.push(await main(["run", demo.request.body, "--title", demo.request.title], first));
    outs.push(first.out() + first.err());
    states.push(state());

    refusing = false; // the person fixed the key
    const second = io();
    codes.push(await main(["resume", "1"], second));
    outs.push(second.out() + second.err());
    states.push(state());
  }, bound(120_000));
  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it("cfa run: one request, no retry, the job live in INTENT with no failure counted", () => {
    expect(refusedRequests).toBe(1);
    expect(states[0]!.state).toBe("INTENT");
    expect(states[0]!.failures).toBe(0);
    expect(states[0]!.engine?.apiWait).toMatchObject({ reason: "credentials" });
  });

  it("cfa run says what to fix and how to carry on, exits 1, and never prints the key", () => {
    expect(codes[0]).toBe(1);
    expect(outs[0]).toMatch(/refused the key \(401\): set ANTHROPIC_API_KEY to a valid key/);
    expect(outs[0]).toMatch(/`cfa resume 1`/);
    expect(outs[0]).not.toMatch(/sweep/);
    expect(outs[0]).not.toContain(KEY);
  });

  it("cfa resume, the key fixed: the same job reaches its first gate, still no failure counted", () => {
    expect(codes[1]).toBe(0);
    expect(states[1]!.state).toBe("INTENT");
    expect(states[1]!.failures).toBe(0);
    expect(states[1]!.engine?.apiWait).toBeUndefined();
    expect(outs[1]).toMatch(/waiting on you to review INTENT\.md/);
  });
});
