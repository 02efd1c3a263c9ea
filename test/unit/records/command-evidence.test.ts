// What the engine saw a command do, and how every view says it: the exit code, and the test
// runner's count or "no count" (the runners' parsers: test/unit/records/test-counts/).

import { describe, expect, it } from "vitest";
import {
  commandLine,
  evidenceOf,
  evidenceOutcome,
  evidenceSuffix,
} from "../../../src/records/command-evidence.js";

describe("evidenceOf keeps what the engine saw", () => {
  it("the command, its exit code, duration and the runner's count", () => {
    expect(
      evidenceOf(commandLine(["npm", "test"]), {
        exitCode: 1,
        durationMs: 1234.6,
        timedOut: false,
        stdout: "ℹ tests 2\nℹ pass 1\nℹ fail 1",
        stderr: "",
      }),
    ).toEqual({
      command: "npm test",
      exitCode: 1,
      durationMs: 1235,
      summary: "1 failed, 1 passed",
    });
  });

  it("quotes arguments a person could misread, and cuts a long command line", () => {
    expect(commandLine(["node", "-e", "console.log(1)"])).toBe('node -e "console.log(1)"');
    expect(commandLine(["echo", "x".repeat(500)]).length).toBeLessThanOrEqual(200);
  });
});

describe("a command whose output has no runner's count says so", () => {
  it("exit N, no count: never a pass of unknown size", () => {
    const e = evidenceOf("make check", {
      exitCode: 0,
      durationMs: 10,
      timedOut: false,
      stdout: "all good\n",
      stderr: "",
    });
    expect(e.summary).toBeUndefined();
    expect(evidenceOutcome(e)).toBe("exit 0, no count");
    expect(evidenceSuffix([e])).toBe(" (make check: exit 0, no count)");
    expect(evidenceOutcome({ exitCode: null, timedOut: true })).toBe("timed out, no count");
    expect(evidenceOutcome({ exitCode: null })).toBe("killed, no count");
    expect(evidenceOutcome({ exitCode: 1, summary: "1 failed, 3 passed" })).toBe(
      "exit 1, 1 failed, 3 passed",
    );
  });

  it("a cut output gives no summed count (the sandbox's truncated flag)", () => {
    const crate = "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
    const run = { exitCode: 0, durationMs: 1, timedOut: false, stdout: crate, stderr: "" };
    expect(evidenceOf("cargo test", run).summary).toBe("2 passed");
    expect(evidenceOf("cargo test", { ...run, truncated: true }).summary).toBeUndefined();
  });
});
