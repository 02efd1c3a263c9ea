// A turn's commit holds that turn's files only: the turns of a round run in
// parallel and are applied one by one, so a process that dies between two applies must
// leave the second turn unapplied — its message still in its mailbox, no line of it in its
// transcript — and the next wake redoes it. Before the fix the first apply's commit swept
// every turn's transcript in, and the resumed worker ran again on top of a transcript that
// said it had already answered.
//
// The job runs once with every gate answered by the proxy; the states a crash could leave
// are kept from the moment the two workers' round starts (crash-seam.ts), and each state
// between the two workers' applies is resumed by a new process.

import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Model } from "../../src/ports/model.js";
import { wake } from "../../src/engine/index.js";
import {
  recordCrashPoints,
  restoreCrashPoint,
  type CrashPoint,
} from "../support/engine/crash-seam.js";
import { firstParentSubjects, transcript, userTexts } from "../support/engine/inspect.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { openJob } from "../support/engine/person.js";
import {
  EXECUTE_STEPS,
  pass,
  worker,
  approveGate,
  proxiedToExecute,
} from "../support/engine/recordings.js";
import { recording } from "../support/engine/script.js";
import { createConversationModel } from "../support/engine/conversation-model.js";

const CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
const HELLO = "worker@dispatch:hello";
const WORLD = "worker@dispatch:world";

const script = () =>
  createConversationModel(
    recording({
      ...proxiedToExecute(),
      "project-lead@state:execute:1": EXECUTE_STEPS(),
      [HELLO]: worker("hello.txt"),
      [WORLD]: worker("world.txt"),
      "verifier@verify:hello-1": pass(),
      "verifier@verify:world-1": pass(),
      "proxy@escalation:q3": approveGate(),
    }),
  );

function subjectsIn(point: CrashPoint): string[] {
  try {
    const out = execFileSync(
      "git",
      ["-C", join(point.dir, "repo"), "log", "--first-parent", "--format=%s", "main..cfa/1"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    ).trim();
    return out === "" ? [] : out.split("\n");
  } catch {
    return [];
  }
}

const turnOf = (who: string) => (s: string) => s.includes(` ${who} turn `);

let job: LocalJob | undefined;
let snapshots: string | undefined;
let points: CrashPoint[] = [];
let reference: { state: string | null; turns: string[] } | undefined;
let failure: unknown;
try {
  snapshots = await mkdtemp(join(tmpdir(), "cfa-round-"));
  const root = join(snapshots, "job");
  const all = await recordCrashPoints({
    root,
    snapshots,
    disarmed: true,
    run: async (seam, arm) => {
      const inner = script();
      // Keep states from the workers' round on: the first request of either worker.
      const model: Model = {
        complete(request, options) {
          if (request.instance.startsWith("worker@")) arm();
          return inner.complete(request, options);
        },
      };
      job = await createLocalJob({ model, config: CONFIG, seam, root });
      await openJob(job);
      const summary = await wake(1, job.deps);
      reference = { state: summary.state, turns: firstParentSubjects(job) };
    },
  });
  // The states between the two workers' applies: one worker's turn committed, not the other's.
  points = all.filter((p) => {
    const subjects = subjectsIn(p);
    return subjects.some(turnOf(HELLO)) !== subjects.some(turnOf(WORLD));
  });
} catch (error) {
  failure = error;
}

afterAll(async () => {
  await job?.cleanup();
  if (snapshots) await rm(snapshots, { recursive: true, force: true });
});

describe("a turn's commit holds that turn's files only", () => {
  it("the reference job ran to DONE through a round of two workers, and a crash could fall between their applies", () => {
    if (failure) throw failure;
    expect(reference?.state).toBe("DONE");
    expect(points.length).toBeGreaterThan(0);
    // The first apply's commit holds the first worker's transcript and not the second's.
    for (const p of points) {
      const files = execFileSync(
        "git",
        ["-C", join(p.dir, "repo"), "show", "--name-only", "--format=", "cfa/1"],
        { encoding: "utf8" },
      );
      expect(files).not.toContain("worker@dispatch~world.jsonl");
    }
  });

  for (const [i, point] of points.entries()) {
    it(`a crash between the two applies (${i + 1}: ${point.label}): the second worker's turn is redone, once`, async () => {
      const j = job!;
      await restoreCrashPoint(point, j.root);
      // The restored tree is a fresh process's: new deps, a model that starts from scratch.
      const summary = await wake(1, await j.reopen());
      expect(summary.state).toBe("DONE");
      // The same turns, each once (the resumed wake may round them differently).
      const turns = (list: string[]) => list.filter((s) => / turn \d+/.test(s)).sort();
      expect(turns(firstParentSubjects(j))).toEqual(turns(reference!.turns));
      for (const who of [HELLO, WORLD]) {
        const messages = transcript(j, who);
        // One turn: the task, three responses, two results — never a second turn on top.
        expect(messages.filter((m) => m.role === "assistant")).toHaveLength(3);
      }
      const lead = userTexts(transcript(j, "project-lead@state:execute:1"));
      expect(lead.filter((t) => t.includes("world.txt written"))).toHaveLength(1);
      expect(lead.filter((t) => t.includes("hello.txt written"))).toHaveLength(1);
    });
  }
});
