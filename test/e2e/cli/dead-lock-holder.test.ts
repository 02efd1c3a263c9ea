// A lock left by a command that died is recognised by its holder's pid and start time and
// taken over at once, said in one line (src/records/lock-owner.ts): a process holding job 1's
// wake lock and the local forge's lock is killed (SIGKILL, nothing cleans up), and the next
// `cfa withdraw` goes through at once, naming each lock it took over. Before, the forge's lock
// counted as stale only after 30 s while a command gave up after 10 s.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultWorkRoot } from "../../../src/cli/work-root.js";
import { main } from "../../../src/cli/main.js";
import { waitingJob, type WaitingJob } from "../../support/cli/waiting-job.js";
import { removeDir, tempDir } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

const HOLDER = join(import.meta.dirname, "../../support/cli/hold-locks.ts");

let root: string;
let job: WaitingJob;
let workRoot: string;
beforeAll(async () => {
  root = tempDir("cfa-dead-holder-");
  job = await waitingJob(root, "held", "gate");
  workRoot = defaultWorkRoot(job.repo, { XDG_CACHE_HOME: job.cacheHome });
}, bound(60_000));
afterAll(() => removeDir(root));

/** Starts the holder, waits until it holds both locks, kills it; its pid. */
function killHolder(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", HOLDER, job.repo, workRoot], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("holding")) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve(child.pid!) : reject(new Error(`the holder ended: ${err}`)),
    );
  });
}

describe("locks a killed command left", () => {
  it("are taken over at once by the next command, each said in one line", async () => {
    const pid = await killHolder();
    const forgeLock = join(job.repo, ".git", "cfa-local", "forge.json.lock");
    expect(existsSync(forgeLock)).toBe(true);
    expect(existsSync(join(workRoot, "1.wake.lock"))).toBe(true);

    const io = job.io();
    expect(await main(["withdraw", "1", "--repo", job.repo], io)).toBe(0);
    expect(io.out()).toContain("WITHDRAWN");
    expect(io.err()).toBe(
      [
        `cfa: warning: cfa/local: ${forgeLock} was left by process ${pid}, which has ended: taken over.`,
        `cfa: warning: cfa/engine: the wake lock ${join(workRoot, "1.wake.lock")} was left by process ${pid}, which has ended: taken over.`,
        "",
      ].join("\n"),
    );
    expect(existsSync(forgeLock)).toBe(false);
  });
});
