// One wake per job (src/engine/wake-lock.ts): a live holder keeps others out; a lock left by
// a dead process, or restored from a copy of this process's tree, is taken over.

import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { takeWakeLock, wakeLockPath } from "../../../../src/engine/job/wake-lock.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-lock-"));
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe("wake lock", () => {
  it("a second taker finds it busy until the first releases it", async () => {
    const first = await takeWakeLock(root, 1);
    expect(first.kind).toBe("taken");
    expect(await takeWakeLock(root, 1)).toEqual({ kind: "busy", pid: process.pid });
    // Another job is another lock.
    const other = await takeWakeLock(root, 2);
    expect(other.kind).toBe("taken");
    if (first.kind === "taken") await first.lock.release();
    const again = await takeWakeLock(root, 1);
    expect(again.kind).toBe("taken");
    if (again.kind === "taken") await again.lock.release();
    if (other.kind === "taken") await other.lock.release();
  });

  it("a lock whose process is gone is stale and taken over", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    await writeFile(wakeLockPath(root, 1), JSON.stringify({ pid: dead, token: "x" }));
    const taken = await takeWakeLock(root, 1);
    expect(taken.kind).toBe("taken");
    if (taken.kind === "taken") await taken.lock.release();
  });

  it("a lock of this process that it does not hold (a restored copy) is stale; a torn one too", async () => {
    await writeFile(wakeLockPath(root, 1), JSON.stringify({ pid: process.pid, token: "old" }));
    const taken = await takeWakeLock(root, 1);
    expect(taken.kind).toBe("taken");
    if (taken.kind === "taken") await taken.lock.release();
    await writeFile(wakeLockPath(root, 1), '{"pid":');
    const again = await takeWakeLock(root, 1);
    expect(again.kind).toBe("taken");
    if (again.kind === "taken") await again.lock.release();
  });
});
