// A command that dies holding a job's locks: takes job 1's wake lock in its work root, then
// the local forge's lock (its document's read-modify-write, stuck in the middle), says
// "holding" and blocks until it is killed. Run by test/e2e/cli/dead-lock-holder.test.ts:
//   node --import tsx hold-locks.ts <repo> <work root>

import { join } from "node:path";
import { JsonStore } from "../../../src/adapters/local/json-store.js";
import { takeWakeLock } from "../../../src/engine/job/wake-lock.js";

const [repo = "", workRoot = ""] = process.argv.slice(2);
const locked = await takeWakeLock(workRoot, 1);
if (locked.kind !== "taken") throw new Error(`the wake lock is busy (pid ${locked.pid})`);
const store = new JsonStore(
  join(repo, ".git", "cfa-local", "forge.json"),
  () => ({}),
  (raw) => raw,
);
await store.update(() => {
  process.stdout.write("holding\n");
  // Blocks this process for good, the lock held, until the test kills it.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});
