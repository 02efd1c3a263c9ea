// kill -9 at a random moment (a crash once committed a turn that never happened, found 1 time in 12
// random kill -9 trials). crash-resume/ and round-commits.test.ts restore every state between two
// port calls; this one kills a real process wherever the signal lands — in the middle of a git
// command or a file write too — and lets a new process finish the job. Each trial aims at a random
// model call of the job (the child says when each starts) plus a random few milliseconds, so the
// kill falls in the call or in the engine's work after it. However it died, the job ends DONE with
// each turn once, and no worker is given its task again on top of a transcript saying it answered.
// The kill takes the process's git commands with it, so git's lock files may stay behind: each
// trial plants them (stale-git-locks.ts removes them at the next wake). CFA_KILL_TRIALS=n runs more
// trials (local runs); each names where it aimed, to try again.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wireLocal } from "../../src/cli/wiring.js";
import { wake } from "../../src/engine/index.js";
import { systemClock } from "../../src/ports/clock.js";
import { firstParentSubjects, transcript, userTexts } from "../support/engine/inspect.js";
import {
  KILL_CONFIG,
  KILL_WORKERS,
  killCalls,
  killModel,
  killRecording,
} from "../support/engine/kill-recording.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { openJob } from "../support/engine/person.js";
import { bound } from "../support/time-bound.js";

const CHILD = join(import.meta.dirname, "../support/engine/kill-child.ts");
const CALL_MS = 5;
const TRIALS = Number(process.env.CFA_KILL_TRIALS ?? "3");
const turns = (subjects: string[]) => subjects.filter((s) => / turn \d+/.test(s)).sort();

/** Runs the child on `root`; kills it `extraMs` after its `atCall`-th model call starts. */
function runChild(root: string, atCall: number, extraMs: number): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, root, String(CALL_MS)], {
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: the kill takes its git commands with it, as a dead runner would.
      detached: true,
    });
    let out = "";
    let err = "";
    let aimed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!aimed && out.includes(`call ${atCall}\n`)) {
        aimed = true;
        setTimeout(() => process.kill(-child.pid!, "SIGKILL"), extraMs);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve({ killed: true });
      else if (code === 0 && out.includes("ended DONE")) resolve({ killed: false });
      else reject(new Error(`kill-child exited ${code}: ${err}`));
    });
  });
}

async function newJob(): Promise<LocalJob> {
  const job = await createLocalJob({ recording: killRecording(), config: KILL_CONFIG });
  await openJob(job);
  return job;
}

/** The next process: new deps over the same repository and work dir, a fresh model. */
async function resume(job: LocalJob) {
  const { deps } = await wireLocal({
    repoDir: job.repoDir,
    workRoot: job.workRoot,
    model: killModel(killRecording()),
    clock: systemClock,
    person: "ana",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  return wake(1, deps);
}

const jobs: LocalJob[] = [];

describe("kill -9 anywhere in a job: the next process finishes it, each turn once", () => {
  afterEach(async () => {
    for (const job of jobs.splice(0)) await job.cleanup();
  });

  const trials = Array.from({ length: TRIALS }, () => ({
    atCall: 1 + Math.floor(Math.random() * killCalls()),
    extraMs: Math.floor(Math.random() * 40),
  }));
  for (const [i, { atCall, extraMs }] of trials.entries()) {
    it(
      `trial ${i + 1}: killed ${extraMs} ms into model call ${atCall} of ${killCalls()}`,
      async () => {
        const job = await newJob();
        jobs.push(job);
        // Aimed at the last call, the kill may come after the process ended: still a trial.
        const run = await runChild(job.root, atCall, extraMs);
        // Git killed inside a command leaves its locks: as if it had been, on the job's branch
        // and in each of its worktrees — and another job's, which is not this wake's to touch.
        const gitDir = join(job.repoDir, ".git");
        await mkdir(join(gitDir, "refs/heads/cfa"), { recursive: true });
        await writeFile(join(gitDir, "refs/heads/cfa/1.lock"), "");
        await writeFile(join(gitDir, "refs/heads/cfa/2.lock"), "");
        for (const admin of await readdir(join(gitDir, "worktrees")).catch(() => [])) {
          await writeFile(join(gitDir, "worktrees", admin, "index.lock"), "");
        }
        const summary = await resume(job);
        expect(summary.state, `killed: ${run.killed}`).toBe("DONE");
        // Each turn once, and both workers' turns among them.
        const subjects = turns(firstParentSubjects(job));
        expect(new Set(subjects).size).toBe(subjects.length);
        for (const who of KILL_WORKERS) {
          expect(subjects.filter((s) => s.includes(` ${who} turn `))).toHaveLength(1);
          // One turn: the task, three responses — never a second turn on top of the first.
          expect(transcript(job, who).filter((m) => m.role === "assistant")).toHaveLength(3);
        }
        expect(existsSync(join(gitDir, "refs/heads/cfa/2.lock"))).toBe(true);
        const lead = userTexts(transcript(job, "project-lead@state:execute:1"));
        for (const file of ["hello.txt", "world.txt"]) {
          expect(lead.filter((t) => t.includes(`${file} written`))).toHaveLength(1);
        }
      },
      bound(180_000),
    );
  }
});
