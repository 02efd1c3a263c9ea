// Whether a lock's holder still runs (src/records/lock-owner.ts): by pid and start time, so a
// dead holder's pid that the system gave to another process does not keep its lock.

import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  isRunning,
  parseLockOwner,
  processStart,
  thisProcess,
} from "../../../src/records/lock-owner.js";

describe("a lock's holder", () => {
  it("this process runs, named by pid and start time", () => {
    const me = thisProcess();
    expect(me.start).toMatch(/^[0-9]+$/);
    expect(isRunning(me)).toBe(true);
    expect(isRunning(parseLockOwner(JSON.stringify(me))!)).toBe(true);
  });

  it("a pid that now belongs to a process started at another time is not the holder (reuse)", () => {
    const me = thisProcess();
    expect(isRunning({ pid: me.pid, start: String(Number(me.start) + 1) })).toBe(false);
  });

  it("a process that ended is not running; an older lock's bare pid is still read", () => {
    const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    const pid = Number(ended.stdout);
    expect(processStart(pid)).toBeNull();
    expect(isRunning({ pid, start: null })).toBe(false);
    expect(parseLockOwner(`${process.pid}\n`)).toEqual({ pid: process.pid, start: null });
    expect(parseLockOwner("not a lock")).toBeNull();
    expect(parseLockOwner('{"pid":-3}')).toBeNull();
  });
});
