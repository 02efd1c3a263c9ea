// A line process ended idle and replaced by the next ask: the old process's exit, when it
// comes after that ask, must not fail the new process's requests ("git exited (0) before
// answering" in test/e2e/cli under load: the idle timeout fell inside a long verification).
// The processes are small shell loops so that the order is fixed: the old one exits 300 ms
// after its input closes, the new one answers after 600 ms.

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { GitLineProcess } from "../../../src/git/git-line-process.js";

const SLOW_EXIT = 'while read l; do echo "old-$l"; done; sleep 0.3';
const SLOW_ANSWER = 'while read l; do sleep 0.6; echo "new-$l"; done';

function lineProcess(scripts: string[]): GitLineProcess {
  let started = 0;
  return new GitLineProcess(() => {
    const script = scripts[Math.min(started, scripts.length - 1)]!;
    started += 1;
    return Promise.resolve(spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "pipe"] }));
  });
}

describe("GitLineProcess replaced while its old process is still exiting", () => {
  it("answers the next ask from the new process (1 case)", async () => {
    const lines = lineProcess([SLOW_EXIT, SLOW_ANSWER]);
    expect(await lines.ask(["a"])).toEqual(["old-a"]);
    lines.close();
    expect(await lines.ask(["b"])).toEqual(["new-b"]);
    lines.close();
  });

  it("still fails the requests of a current process that exits without answering (positive control, 1 case)", async () => {
    const lines = lineProcess(["read l; exit 0"]);
    await expect(lines.ask(["a"])).rejects.toThrow(/exited \(0\) before answering/);
  });
});
