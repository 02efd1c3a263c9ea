// The bash session between calls: what a command changed of its environment (set, changed,
// unset) carried on top of the sandbox's own, the shell's own variables never.

import { describe, expect, it } from "vitest";
import {
  FRESH_SESSION,
  nextSession,
  parseEnvDump,
  sessionEnv,
} from "../../../../src/agents/shell/shell-state.js";

const dump = (vars: Record<string, string>) =>
  parseEnvDump(
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(""),
  );

describe("the bash session's variables", () => {
  it("reads `env -0`, values with newlines and `=` whole, the shell's own names left out", () => {
    expect([...parseEnvDump("A=1\0B=x=y\nz\0PWD=/w\0SHLVL=2\0_=/bin/env\0bad name=1\0")]).toEqual([
      ["A", "1"],
      ["B", "x=y\nz"],
    ]);
  });

  it("carries what the command set, changed and unset — on top of what it had", () => {
    const start = dump({ PATH: "/usr/bin", HOME: "/h", OLD: "1", KEEP: "k" });
    const end = dump({ PATH: "/opt/bin:/usr/bin", HOME: "/h", KEEP: "k", NEW: "a b" });
    const { session, notes } = nextSession(
      { cwd: ".", env: { EARLIER: "e" }, unset: [] },
      { start, end, cwd: "src" },
    );
    expect(notes).toEqual([]);
    expect(session).toEqual({
      cwd: "src",
      env: { EARLIER: "e", PATH: "/opt/bin:/usr/bin", NEW: "a b" },
      unset: ["OLD"],
    });
    expect(sessionEnv({ PATH: "/usr/bin", HOME: "/h2", OLD: "1" }, session)).toEqual({
      PATH: "/opt/bin:/usr/bin",
      HOME: "/h2",
      EARLIER: "e",
      NEW: "a b",
    });
  });

  it("starts fresh from the sandbox's own environment", () => {
    expect(sessionEnv({ PATH: "/p" }, FRESH_SESSION)).toEqual({ PATH: "/p" });
  });
});
