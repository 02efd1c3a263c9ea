// Recordings made before tool sets had names keep replaying: the demo as it was shipped with
// the `classic` tools (read_file, write_file, run_command — test/fixtures/recordings/
// demo-classic.json, kept byte for byte) names no tool set, so `cfa replay` gives its agents
// the classic tools, run_command's allowlist included, and the job ends as it always did: the
// same three tasks verified with npm test and merged, DONE.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { captureIo, type CapturedIo } from "../../support/cli/capture-io.js";
import { bound } from "../../support/time-bound.js";

const FIXTURE = fileURLToPath(
  new URL("../../fixtures/recordings/demo-classic.json", import.meta.url),
);

let root: string;
let io: CapturedIo;
let code: number;
let repo: string;

beforeAll(async () => {
  root = tempDir("cfa-demo-classic-");
  // As a user's shell would: no tool set named by a test seam, the recording's own decides.
  const { toolSet: _unset, ...plain } = captureIo({
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: join(root, "cache") },
  });
  io = plain as CapturedIo;
  code = await main(["replay", FIXTURE, "--dir", join(root, "replay")], io);
  repo = join(root, "replay", "repo");
}, bound(120_000));
afterAll(() => removeDir(root));

describe("the demo recorded with the classic tools, replayed", () => {
  it("is the file as it shipped, naming no tool set", () => {
    const file = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      recording: Record<string, unknown>;
    };
    expect(file.recording).not.toHaveProperty("toolSet");
    expect(readFileSync(FIXTURE, "utf8")).toContain('"name": "run_command"');
  });

  it("replays to DONE with nothing left over or diverged", () => {
    expect(io.err()).toBe("");
    expect(code).toBe(0);
    expect(io.out()).toContain("DONE — the work is approved.");
  });

  it("ends where it always did: three tasks verified by npm test and merged", () => {
    const state = JSON.parse(git(repo, "show", "cfa/1:.cfa/jobs/1/state.json")) as {
      state: string;
      engine: {
        toolSet?: string;
        tasks: Record<
          string,
          { status: string; lastVerdict: string; verifierEvidence?: { command: string }[] }
        >;
      };
    };
    expect(state.state).toBe("DONE");
    // A classic job's records read as they did before tool sets had names.
    expect(state.engine).not.toHaveProperty("toolSet");
    expect(
      Object.entries(state.engine.tasks).map(([id, t]) => [
        id,
        t.status,
        t.lastVerdict,
        t.verifierEvidence?.map((e) => e.command),
      ]),
    ).toEqual([
      ["camel-case", "merged", "pass", ["npm test"]],
      ["capitalize", "merged", "pass", ["npm test"]],
      ["truncate", "merged", "pass", ["npm test"]],
    ]);
    // The agents had the classic tools: the recorded write_file calls wrote the files.
    expect(git(repo, "show", "cfa/1:src/index.js")).toContain("export { truncate }");
  });
});
