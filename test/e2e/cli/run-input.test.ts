// What `cfa run` takes and what it says when the model's API is away: a request too long for
// a command line (a 1 MB one, from --file or standard input), and ANTHROPIC_BASE_URL naming
// a port where nothing listens. The real Anthropic adapter and SDK try it (connection
// refused), on a clock its own sleep moves so the local patience passes at once; the
// command says to check ANTHROPIC_BASE_URL and exits 1 with the job live, and withdrawing
// that job is no failure (exit 0).

import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { LOCAL_PATIENCE_MS } from "../../../src/cli/no-key.js";
import { captureIo, type CapturedIo } from "../../support/cli/capture-io.js";
import { freePort } from "../../support/github/signed-delivery.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

let temp: TempRepo;
let nowhere: string;
const waited: number[] = [];
const BIG = `Rename the greeting everywhere\n\n${"Details. ".repeat(120_000)}\n`; // ~1 MB

function io(overrides: Parameters<typeof captureIo>[0] = {}): CapturedIo {
  let now = Date.parse("2026-11-20T10:00:00Z");
  return captureIo({
    cwd: temp.repo,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME,
      ANTHROPIC_API_KEY: "sk-ant-api03-key-for-nowhere",
      ANTHROPIC_BASE_URL: nowhere,
    },
    workRoot: join(temp.root, "work"),
    modelPatience: {
      now: () => now,
      sleep: (ms: number) => {
        waited.push(ms);
        now += ms;
        return Promise.resolve();
      },
    },
    ...overrides,
  });
}

const state = (n: number) =>
  JSON.parse(temp.git("show", `cfa/${n}:.cfa/jobs/${n}/state.json`)) as {
    state: string;
    failures: number;
    engine: { apiWait?: { reason?: string } };
  };
const issueBody = (n: number) =>
  (
    JSON.parse(readFileSync(join(temp.repo, ".git/cfa-local/forge.json"), "utf8")) as {
      issues: { number: number; title: string; body: string }[];
    }
  ).issues.find((issue) => issue.number === n);

let first: CapturedIo;
let firstCode: number;
beforeAll(async () => {
  temp = makeTempRepo({ prefix: "cfa-run-input-" });
  nowhere = `http://127.0.0.1:${await freePort()}`;
  await writeFile(join(temp.root, "request.md"), BIG);
  first = io();
  firstCode = await main(["run", "--file", join(temp.root, "request.md")], first);
}, bound(120_000));
afterAll(() => temp.cleanup());

describe("cfa run --file, with ANTHROPIC_BASE_URL pointing nowhere", () => {
  it("opens the job with the whole 1 MB request, titled by its first line", () => {
    expect(first.out()).toContain("Opened job #1 in");
    expect(first.out()).toContain('"Rename the greeting everywhere"');
    expect(issueBody(1)?.body).toBe(BIG.trim());
  });

  it("waits the local patience, then stops live saying to check ANTHROPIC_BASE_URL; exit 1", () => {
    expect(firstCode).toBe(1);
    // Backoff of 2 s doubling to 60 s, jittered: the waits end before the patience would.
    const total = waited.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(LOCAL_PATIENCE_MS / 2);
    expect(total).toBeLessThanOrEqual(LOCAL_PATIENCE_MS);
    expect(first.out()).toContain(
      `  every call went to ANTHROPIC_BASE_URL (${nowhere}): check it is right and up.`,
    );
    expect(first.out()).toMatch(/`cfa resume 1` tries again/);
    expect(state(1)).toMatchObject({ state: "INTENT", failures: 0 });
  });

  it("withdrawing the job that waited is no failure: exit 0, WITHDRAWN", async () => {
    const w = io();
    expect(await main(["withdraw", "1", "wrong gateway"], w)).toBe(0);
    expect(w.out()).toContain("WITHDRAWN — wrong gateway.");
    expect(w.out()).not.toContain("ANTHROPIC_BASE_URL");
  });
});

describe("cfa run - reads the request from standard input", () => {
  it('opens a job with what it read, not one titled "-"', async () => {
    const run = io({
      stdin: Readable.from([Buffer.from("Add a --json flag\n\nto the report.\n")]),
    });
    await main(["run", "-"], run);
    expect(run.out()).toContain("Opened job #2 in");
    expect(issueBody(2)).toMatchObject({
      title: "Add a --json flag",
      body: "Add a --json flag\n\nto the report.",
    });
  });

  it("a request as an argument and --file both: refused, naming both", async () => {
    const both = io();
    expect(await main(["run", "x", "--file", "y.md"], both)).toBe(2);
    expect(both.err()).toContain("give the request as an argument or with --file, not both");
  });

  it("a --file that is not there: one line naming it", async () => {
    const missing = io();
    expect(await main(["run", "--file", "nope.md"], missing)).toBe(1);
    expect(missing.err()).toBe(
      `cfa: cannot read the request from ${join(temp.repo, "nope.md")}: no such file or folder (ENOENT).\n`,
    );
  });
});
