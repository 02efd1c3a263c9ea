// The demo job (recordings/demo.json) driven through `cfa` with the real Anthropic adapter,
// against the fake Messages API answering the recording: shared by the end-to-end test
// (test/e2e/model) and the cache bench (bench/cache.bench.ts), which reads the requests the
// adapter built. `cfa run`, then each recorded person action as its own `cfa` command.

import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../../src/cli/main.js";
import { captureIo } from "../cli/capture-io.js";
import { toolSetOf } from "../../../src/records/tool-sets.js";
import { makeTempRepo } from "../git/temp-repo.js";
import { recordedJobApi, type Fault, type RecordedJobApi } from "./recorded-job.js";
import { startFakeMessagesApi, type FakeMessagesApi } from "./server.js";

export interface DemoFile {
  request: { title: string; body: string };
  files: Record<string, string>;
  recording: { toolSet?: string; instances: Record<string, unknown[]> };
  people: { action: "approve" | "reject"; text?: string }[];
}

export interface DemoRun {
  /** The demo file the run played. */
  demo: DemoFile;
  api: RecordedJobApi;
  server: FakeMessagesApi;
  /** Exit code of each `cfa` command, `run` first. */
  codes: number[];
  out: string;
  err: string;
  state: { state: string; failures: number; history: { action: string; by: string }[] };
  /** The adapter's waits between retries, in ms, on its injected clock. */
  waits: number[];
  /** How many requests had arrived when each person acted (a gate's or question's pause). */
  pauses: number[];
  /** Steps in the recording. */
  steps: number;
  cleanup(): Promise<void>;
}

export const DEMO_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../recordings/demo.json",
);

export async function runDemoOverHttp(faults: Fault[] = []): Promise<DemoRun> {
  const demo = JSON.parse(await readFile(DEMO_PATH, "utf8")) as DemoFile;
  const api = recordedJobApi(demo.recording as never, { faults });
  const server = await startFakeMessagesApi((request) => api.respond(request));
  const temp = makeTempRepo({
    prefix: "cfa-http-demo-",
    identity: { name: "ana", email: "ana@example.com" },
    files: demo.files,
  });
  const { root, repo } = temp;

  // The adapter's patience, on a clock its own sleep moves: minutes of backoff in no time.
  let now = Date.parse("2026-11-20T10:00:00Z");
  const waits: number[] = [];
  const io = captureIo({
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME,
      ANTHROPIC_API_KEY: "sk-ant-api03-fake-key-for-the-local-server",
      ANTHROPIC_BASE_URL: server.url,
    },
    workRoot: join(root, "work"),
    // The agents get the tools the recorded responses call.
    toolSet: toolSetOf(demo.recording.toolSet),
    // The recording's responses assume its order of replies (no round barrier: a storm on
    // one worker's calls would let another's reply reach the lead first).
    applyOrder: "started",
    modelPatience: {
      now: () => now,
      sleep: (ms: number) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    },
  });
  const codes = [await main(["run", demo.request.body, "--title", demo.request.title], io)];
  const pauses: number[] = [];
  for (const person of demo.people) {
    pauses.push(server.requests.length);
    codes.push(
      await main(
        person.action === "approve"
          ? ["approve", "1"]
          : ["reject", "1", "--comment", person.text ?? ""],
        io,
      ),
    );
  }
  const state = JSON.parse(temp.git("show", "cfa/1:.cfa/jobs/1/state.json")) as DemoRun["state"];
  const steps = Object.values(demo.recording.instances).reduce((n, s) => n + s.length, 0);
  return {
    demo,
    api,
    server,
    codes,
    out: io.out(),
    err: io.err(),
    state,
    waits,
    pauses,
    steps,
    cleanup: async () => {
      await server.close();
      temp.cleanup();
    },
  };
}
