// A CliIo that captures what a command writes, for tests.

import type { CliIo } from "../../../src/cli/cli-io.js";

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
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME },
    cwd: process.cwd(),
    ...overrides,
    out: () => out,
    err: () => err,
  };
}
