// A CliIo that captures what a command writes, for tests.

import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIo } from "../../../src/cli/cli-io.js";

/**
 * Job areas of commands run in tests go here, never into the user's own cache
 * (src/cli/work-root.ts reads XDG_CACHE_HOME from the command's environment).
 */
export const TEST_CACHE_HOME = join(tmpdir(), "cfa-test-cache");

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

export function captureIo(overrides: Partial<CliIo> = {}): CapturedIo {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME,
      XDG_CACHE_HOME: TEST_CACHE_HOME,
    },
    cwd: process.cwd(),
    // The suite's recordings were made with the unnamed tool set (src/records/tool-sets.ts);
    // a test of the current one passes its recording's.
    toolSet: "classic",
    ...overrides,
    out: () => out,
    err: () => err,
  };
}
