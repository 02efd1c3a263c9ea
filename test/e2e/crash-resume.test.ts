// Bounded crash-loss (seed 000 §11, §12): a process that dies between any two steps of a
// turn loses at most that turn; the next wake — new deps over the same repository and work
// dir — resumes, and the job ends where it would have, with nothing done twice.
//
// A job runs once; the state it leaves before and after every call it makes through its
// ports (forge, model, workspaces) is kept, each distinct state once (crash-seam.ts). Each
// test puts one back and lets a new process finish the job. Two jobs: a whole one to DONE
// (a person's gate, proxy gates, a task verified and merged), and the wake in which a
// `/withdraw` drops two live tasks. CFA_CRASH_SAMPLE=k keeps every k-th state (local runs).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { driveToEnd } from "../support/engine/drive.js";
import {
  recordCrashPoints,
  restoreCrashPoint,
  type CrashPoint,
  type CrashSeam,
} from "../support/engine/crash-seam.js";
import {
  botComments,
  commentsOfKind,
  foldedBus,
  state,
  taskBranches,
  turnCommits,
} from "../support/engine/inspect.js";
import { createLocalJob, git, type LocalJob } from "../support/engine/local-job.js";
import { approve, openJob, say as comment } from "../support/engine/person.js";
import {
  COMPACT_CONFIG,
  compactRecording,
  INTENT_STEPS,
  PLAN_STEPS,
} from "../support/engine/recordings.js";
import { call, recording, say, STEP_USAGE, tools } from "../support/engine/script.js";
import { wake } from "../../src/engine/index.js";

/** What must come out the same however the job was interrupted. */
interface Outcome {
  state: string | null;
  /** Per-turn commit subjects of the job branch, in order. */
  turns: string[];
  /** The bot's structured comments, as kind and seq. */
  comments: string[];
  pr: { draft: boolean; state: string } | null;
  reason: string | undefined;
}

async function outcomeOf(job: LocalJob, end: string | null): Promise<Outcome> {
  const pr = await job.forge.findPullRequest("cfa/1");
  return {
    state: end,
    turns: turnCommits(job),
    comments: (await botComments(job)).map((c) => `${c.block.kind} ${c.block.seq ?? ""}`).sort(),
    pr: pr ? { draft: pr.draft, state: pr.state } : null,
    reason: state(job).history.at(-1)?.reason,
  };
}

interface Scenario {
  job?: LocalJob;
  snapshots?: string;
  points: CrashPoint[];
  reference?: Outcome;
  /** Model calls the reference job was charged (state.json engine.calls). */
  calls?: number;
  failure?: unknown;
}

/** Runs `drive` once under the recording seam; `drive` returns the job's last summary state. */
async function record(
  make: (seam: CrashSeam, root: string) => Promise<LocalJob>,
  drive: (job: LocalJob, arm: () => void) => Promise<string | null>,
  disarmed = false,
): Promise<Scenario> {
  const scenario: Scenario = { points: [] };
  try {
    scenario.snapshots = await mkdtemp(join(tmpdir(), "cfa-crash-"));
    const root = join(scenario.snapshots, "job");
    const points = await recordCrashPoints({
      root,
      snapshots: scenario.snapshots,
      disarmed,
      run: async (seam, arm) => {
        const job = await make(seam, root);
        scenario.job = job;
        scenario.reference = await outcomeOf(job, await drive(job, arm));
        scenario.calls = chargedCalls(job);
      },
    });
    const every = Number(process.env.CFA_CRASH_SAMPLE ?? "1");
    scenario.points = points.filter((_, i) => i % every === 0);
  } catch (error) {
    scenario.failure = error;
  }
  return scenario;
}

const done = await record(
  async (seam, root) =>
    createLocalJob({ recording: compactRecording(), config: COMPACT_CONFIG, seam, root }),
  async (job) => {
    await openJob(job);
    return (await driveToEnd(job, job.deps)).state;
  },
);

const TASKS = ["alpha", "beta"];
const withdrawn = await record(
  async (seam, root) =>
    createLocalJob({
      // INTENT's gate is the person's, PLAN's the proxy's; EXECUTE asks the person.
      config: "escalation:\n  PLAN: never\n",
      seam,
      root,
      recording: recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": PLAN_STEPS(),
        "proxy@escalation:q2": [tools(call("answer", { text: "approved" }))],
        "project-lead@state:execute:1": [
          tools(
            ...TASKS.map((id) =>
              call("dispatch", { id, brief: `Create ${id}.txt containing ${id}`, files: [] }),
            ),
          ),
          say("Two tasks dispatched."),
        ],
        ...Object.fromEntries(
          TASKS.map((id) => [
            `worker@dispatch:${id}`,
            [
              tools(call("write_file", { path: `${id}.txt`, content: `${id}\n` })),
              tools(call("ask_question", { kind: "question", text: `Is ${id}.txt right?` })),
            ],
          ]),
        ),
      }),
    }),
  async (job, arm) => {
    await openJob(job);
    await wake(1, job.deps);
    await approve(job);
    await wake(1, job.deps);
    await comment(job, "/withdraw not needed after all");
    // Only the wake that withdraws is interrupted.
    arm();
    return (await wake(1, job.deps)).state;
  },
  true,
);

afterAll(async () => {
  for (const s of [done, withdrawn]) {
    await s.job?.cleanup();
    if (s.snapshots) await rm(s.snapshots, { recursive: true, force: true });
  }
});

function chargedCalls(job: LocalJob): number {
  return (state(job).engine as { calls?: number }).calls ?? 0;
}

/**
 * No call paid twice (issue 9 point 5): every response is journalled the moment it arrives,
 * so a redone turn replays what was paid and the record charges each call once. The one
 * call a crash can make the job pay again is the one whose answer it lost: a crash right
 * after the model answered, before the engine wrote the answer down.
 */
function expectEachCallPaidOnce(
  job: LocalJob,
  scenario: Scenario,
  point: CrashPoint,
  window: boolean,
): void {
  const lostAnswer = /^after \d+ model\.complete$/.test(point.label) ? 1 : 0;
  const repaid = chargedCalls(job) - scenario.calls!;
  if (window) {
    // Known gap (README "things that bite"): a worker turn committed on its task branch but
    // not yet applied on the job branch is redone on top of its own files, so its tool
    // results — and the requests after them — differ, and those calls are asked again.
    expect(repaid).toBeGreaterThanOrEqual(0);
    expect(repaid).toBeLessThanOrEqual(3);
  } else {
    expect(repaid).toBe(lostAnswer);
  }
  const price = job.deps.price(job.deps.resolveModel("capable"), STEP_USAGE);
  expect(state(job).costUsd).toBeCloseTo(chargedCalls(job) * price, 9);
}

/**
 * Whether the dead process had committed a worker's turn on its task branch without applying
 * it on the job branch (the commits are two, one after the other).
 */
function taskCommitUnapplied(point: CrashPoint): boolean {
  const repo = join(point.dir, "repo");
  const log = (...args: string[]) => {
    try {
      return git(repo, "log", "--format=%s", ...args).split("\n");
    } catch {
      return [];
    }
  };
  const applied = new Set(log("--first-parent", "cfa/1"));
  const branches = git(repo, "branch", "--list", "--format=%(refname:short)", "cfa/1-*");
  return branches
    .split("\n")
    .filter((b) => b !== "")
    .some((b) =>
      log(`cfa/1..${b}`).some((subject) => / turn \d+$/.test(subject) && !applied.has(subject)),
    );
}

/** Wakes job 1 as its person would until it ends (WITHDRAWN needs no approval). */
async function finish(job: LocalJob): Promise<string | null> {
  return (await driveToEnd(job, await job.reopen())).state;
}

async function expectNothingTwice(job: LocalJob): Promise<void> {
  expect(await commentsOfKind(job, "status")).toHaveLength(1);
  const seqs = (await botComments(job)).flatMap((c) =>
    c.block.seq === undefined ? [] : [c.block.seq],
  );
  expect(new Set(seqs).size).toBe(seqs.length);
  const turns = turnCommits(job);
  expect(new Set(turns).size).toBe(turns.length);
  // The log folds, to rest: no instance or escalation left half-done.
  expect(foldedBus(job).folded.soup.isQuiescent()).toBe(true);
  // Every task's workspace and branch is gone, merged or dropped.
  expect(taskBranches(job)).toEqual([]);
  expect(git(job.repoDir, "worktree", "list")).not.toMatch(/task-/);
}

describe("a job interrupted at any call ends as it would have (DONE)", () => {
  it("the reference job ran to DONE and left crash points", () => {
    if (done.failure) throw done.failure;
    expect(done.reference?.state).toBe("DONE");
    expect(done.reference?.pr).toEqual({ draft: false, state: "open" });
    expect(done.points.length).toBeGreaterThan(0);
  });

  for (const point of done.points) {
    it(`dies ${point.label}`, async () => {
      const job = done.job!;
      const window = taskCommitUnapplied(point);
      await restoreCrashPoint(point, job.root);
      const outcome = await outcomeOf(job, await finish(job));
      expect(outcome).toEqual(done.reference);
      await expectNothingTwice(job);
      expectEachCallPaidOnce(job, done, point, window);
      expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).toContain("hello.txt");
    });
  }
});

describe("a withdraw interrupted at any call ends as it would have (WITHDRAWN)", () => {
  it("the reference wake withdrew the job and left crash points", () => {
    if (withdrawn.failure) throw withdrawn.failure;
    expect(withdrawn.reference?.state).toBe("WITHDRAWN");
    expect(withdrawn.reference?.pr).toEqual({ draft: true, state: "closed" });
    expect(withdrawn.points.length).toBeGreaterThan(0);
  });

  for (const point of withdrawn.points) {
    it(`dies ${point.label}`, async () => {
      const job = withdrawn.job!;
      const window = taskCommitUnapplied(point);
      await restoreCrashPoint(point, job.root);
      const outcome = await outcomeOf(job, await finish(job));
      expect(outcome).toEqual(withdrawn.reference);
      await expectNothingTwice(job);
      expectEachCallPaidOnce(job, withdrawn, point, window);
      const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
      for (const id of TASKS) expect(files).not.toContain(`${id}.txt`);
    });
  }
});
