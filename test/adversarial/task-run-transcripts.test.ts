// The lead copies a task run's worker transcript (`.cfa/turns/transcript.jsonl` on the task branch)
// into the job's record of that worker (fold-task-transcript.ts). The runner that wrote it ran the
// agent's commands: taken over, it pushes transcripts meant to reach `cfa/1`. 3 through the lead's
// fold, on a job whose task runs push them:
// - an oversized transcript (a well-formed turn over TASK_TRANSCRIPT_MAX_BYTES): refused
//   from its size alone, said once;
// - lines that are not transcript entries (a planted line between two turns): refused by the
//   line's number, nothing of it repeated, said once;
// - a transcript claiming another instance: the project lead's record, with a planted turn,
//   under `.cfa/turns/` by that instance's file name — the lead reads one path and writes
//   one, both its own, never the branch's: the lead's record on cfa/1 is its own, the file
//   said once. (A plant in the job's folder itself, `.cfa/jobs/1/instances/…`, is not this
//   fold's: the task's merge refuses it as a conflict under `.cfa/`.)
// Positive controls: each plant is on the branch at the head the lead reads, and the
// oversized one is a transcript the take accepts without the bound.
// And 3 at the take itself (takeTaskTranscript, pure): a transcript that rewrites the
// worker's turns on the job branch, one holding a secret of the lead's run, one whose last
// turn never ended — refused, refused, cut at the last whole turn; each with its control.
// And 1 through the lead's fold: nothing in a transcript names its instance, so on a worker's
// first run (nothing to continue) another instance's well-formed conversation — world's,
// pushed by hello's run — is refused because its turn opens on a message the lead's bus never
// delivered to hello's worker; control: the same text from world's run is taken for world.
// And 2 at the take: a dead run's ended turn whose record never counted, left before the
// counted one (one turn too many), and a turn opening on mail never delivered; each with its
// control. And 1 at the take: after a refused take, the next run's honest turn is refused too
// (the run carries the refused turn on); control: without it, the same turn is taken. (The
// later worker turns of a record, on its sub-tasks' mail: task-run-subtree-mail.test.ts.)

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { transcriptLines, loadTranscript } from "../../src/agents/transcript/index.js";
import {
  takeTaskTranscript,
  TASK_TRANSCRIPT_MAX_BYTES,
} from "../../src/engine/fanout/task-transcript-take.js";
import { jobPaths } from "../../src/records/job-paths.js";
import { TASK_TRANSCRIPT_PATH } from "../../src/records/task-turn-record.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { fileOnBranch } from "../support/engine/inspect.js";
import { cases } from "../support/adversarial/count.js";
import {
  activeRuns,
  runTaskAsItsRun,
  tasksInOwnRunsRecording,
} from "../support/engine/task-run-pushes.js";
import {
  approvedToDone,
  dispatchedToRuns,
  PER_TASK,
  refusedSince,
} from "../support/engine/task-run-jobs.js";

const USAGE = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
const LEAD_FILE = jobPaths(1).instance({ agent: "project-lead", thread: "state:execute:1" });
const workerFile = (task: string) =>
  jobPaths(1).instance({ agent: "worker", thread: `dispatch:${task}` });

/** The files of `ref` holding `text` (git grep exits 1 when none does). */
function grepBranch(repo: string, text: string, ref: string): string {
  try {
    return git(repo, "grep", "-l", "-F", text, ref);
  } catch {
    return "";
  }
}

/** The text a take's turns open on in the pure cases below. */
const TASK_MESSAGE = "write the file";

/** One whole turn of a transcript: `opening` (the task's message), the worker's answer, its end. */
function turn(n: number, answer: string, opening = TASK_MESSAGE): string {
  const lines = transcriptLines(
    n,
    [
      { role: "user", content: [{ type: "text", text: opening }] },
      { role: "assistant", content: [{ type: "text", text: answer }] },
    ],
    { usage: USAGE, stop: "end_turn" },
  );
  return lines.map((l) => `${l}\n`).join("");
}

const OVERSIZED = turn(1, "x".repeat(TASK_TRANSCRIPT_MAX_BYTES));
const NOT_ENTRIES = `${turn(1, "written")}PLANTED not an entry\n${turn(2, "more")}`;

describe(cases("a taken-over task run's pushed transcripts", 3, "plants"), () => {
  const newJob = useLocalJobs();

  it("each handled once — refused by size, refused by line number, the path the lead's — nothing of them on cfa/1; DONE", async () => {
    const job = await newJob({ recording: tasksInOwnRunsRecording(), config: PER_TASK });
    const deps = await dispatchedToRuns(job, activeRuns());
    const leadBefore = fileOnBranch(job, LEAD_FILE);
    expect(leadBefore).not.toBeNull();
    const claimed = `${leadBefore}\n${turn(9, "PLANTED as the project lead")}`;
    const otherName = `.cfa/turns/${LEAD_FILE.split("/").at(-1)}`;
    await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt", undefined, {
      [TASK_TRANSCRIPT_PATH]: OVERSIZED,
    });
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt", undefined, {
      [TASK_TRANSCRIPT_PATH]: NOT_ENTRIES,
      [otherName]: claimed,
    });

    // Positive controls: every plant is on the branch, at the head the lead reads.
    const size = Number(git(job.repoDir, "cat-file", "-s", `cfa/1-hello:${TASK_TRANSCRIPT_PATH}`));
    expect(size).toBeGreaterThan(TASK_TRANSCRIPT_MAX_BYTES);
    expect(takeTaskTranscript(OVERSIZED, "", () => false, [TASK_MESSAGE], Infinity)).toMatchObject({
      kind: "take",
      turns: 1,
    });
    expect(git(job.repoDir, "show", `cfa/1-world:${TASK_TRANSCRIPT_PATH}`)).toContain("PLANTED");
    expect(git(job.repoDir, "show", `cfa/1-world:${otherName}`)).toContain("PLANTED");

    const before = job.lines.length;
    const atGate = await wake(1, deps);
    const refused = refusedSince(job, before);
    expect(refused.sort()).toEqual(
      [
        `task hello's run: its transcript is ${size} bytes, over the ${TASK_TRANSCRIPT_MAX_BYTES}-byte bound: not taken`,
        "task world's run: its transcript's line 4 is not a transcript entry: not taken",
        `task world's run: ${otherName}: not a turn record's name`,
      ].sort(),
    );
    // Neither worker's record took anything; the lead's record is the lead's own.
    expect(fileOnBranch(job, workerFile("hello"))).toBeNull();
    expect(fileOnBranch(job, workerFile("world"))).toBeNull();
    expect(fileOnBranch(job, LEAD_FILE)).not.toContain("PLANTED");
    await approvedToDone(job, deps, atGate);
    // Said once across wakes; nothing of the plants anywhere on the job branch or in a line.
    expect(job.lines.filter((l) => l.event === "REFUSED")).toHaveLength(3);
    expect(job.lines.some((l) => l.detail.includes("PLANTED"))).toBe(false);
    expect(grepBranch(job.repoDir, "PLANTED", "cfa/1")).toBe("");
  });
});

describe(cases("transcripts the take refuses or cuts", 3), () => {
  const mine = turn(1, "my first turn");
  const never = () => false;

  it("a transcript that rewrites the worker's turns on the job branch is refused; positive control: the same text is taken where the worker had none", () => {
    const rewritten = `${turn(1, "PLANTED first turn")}${turn(2, "next")}`;
    expect(takeTaskTranscript(rewritten, mine, never, [TASK_MESSAGE])).toEqual({
      kind: "refuse",
      refusal: "not-a-continuation",
      why: "its transcript does not continue the worker's on the job branch: not taken",
    });
    expect(takeTaskTranscript(rewritten, "", never, [TASK_MESSAGE, TASK_MESSAGE])).toMatchObject({
      kind: "take",
      turns: 2,
    });
    // What continues it is taken whole.
    const continued = `${mine}${turn(2, "next")}`;
    expect(takeTaskTranscript(continued, mine, never, [TASK_MESSAGE])).toEqual({
      kind: "take",
      text: continued,
      turns: 2,
    });
  });

  it("a transcript whose new turns hold a secret of the lead's run is refused (its text not repeated); positive control: taken when nothing holds one", () => {
    const secret = "sk-ant-PLANTED0123456789";
    const leaking = `${mine}${turn(2, `the key is ${secret}`)}`;
    const holds = (text: string) => text.includes(secret);
    const refused = takeTaskTranscript(leaking, mine, holds, [TASK_MESSAGE]);
    expect(refused).toMatchObject({ kind: "refuse", refusal: "secret" });
    expect(JSON.stringify(refused)).not.toContain(secret);
    expect(takeTaskTranscript(leaking, mine, never, [TASK_MESSAGE])).toMatchObject({
      kind: "take",
    });
  });

  it("a last turn that never ended is left out: what is taken loads as whole turns; positive control: the file as pushed holds the unended turn", () => {
    const unended = `${mine}${turn(2, "PLANTED unended").split("\n").slice(0, 2).join("\n")}\n`;
    expect(loadTranscript(unended).partial).not.toBeNull();
    const take = takeTaskTranscript(unended, "", never, [TASK_MESSAGE]);
    expect(take).toEqual({ kind: "take", text: mine, turns: 1 });
    expect(takeTaskTranscript(unended, mine, never, [])).toEqual({ kind: "nothing-new" });
  });
});

/** A worker's turn as its run writes it: opening on the task message the engine rendered. */
const taskTurn = (n: number, answer: string, brief: string) =>
  turn(n, answer, `Your task from project-lead@state:execute:1 (job #1):\n\n${brief}`);
const HELLO_BRIEF = "Create hello.txt containing hello";
const WORLD_BRIEF = "Create world.txt containing world";

describe(cases("another instance's conversation as a worker's on its first run", 1), () => {
  const newJob = useLocalJobs();

  it("hello's run pushes world's well-formed conversation: refused, said once, hello's record empty; positive control: world's own conversation from world's run is taken", async () => {
    const job = await newJob({ recording: tasksInOwnRunsRecording(), config: PER_TASK });
    const deps = await dispatchedToRuns(job, activeRuns());
    const worlds = taskTurn(1, "PLANTED world's answer", WORLD_BRIEF);
    // Well-formed, ended, nothing to continue yet: what the continuation check alone passes.
    expect(takeTaskTranscript(worlds, "", () => false, [WORLD_BRIEF])).toMatchObject({
      kind: "take",
    });
    await runTaskAsItsRun(job.repoDir, "hello", "901", "hello.txt", undefined, {
      [TASK_TRANSCRIPT_PATH]: worlds,
    });
    await runTaskAsItsRun(job.repoDir, "world", "902", "world.txt", undefined, {
      [TASK_TRANSCRIPT_PATH]: worlds,
    });

    const before = job.lines.length;
    const atGate = await wake(1, deps);
    expect(refusedSince(job, before)).toEqual([
      "task hello's run: its transcript's new turns are not the ones the lead delivered (its turn 1 of them opens on another message): not taken",
    ]);
    expect(fileOnBranch(job, workerFile("hello"))).toBeNull();
    // The control: the same text is world's own, and the lead takes it into world's record.
    // (fileOnBranch reads through `git show`, its last newline trimmed.)
    expect(`${fileOnBranch(job, workerFile("world"))}\n`).toBe(worlds);
    await approvedToDone(job, deps, atGate);
    expect(job.lines.filter((l) => l.event === "REFUSED")).toHaveLength(1);
  });
});

describe(cases("turns the lead did not deliver in a transcript", 2), () => {
  const never = () => false;
  const mine = taskTurn(1, "my first turn", HELLO_BRIEF);
  const reply = "Message from project-lead@state:execute:1:\nalso add a newline";

  it("a dead run's ended turn whose record never counted, before the one that did, is refused; positive control: without it the same turn is taken", () => {
    // Both open on the same mail: the dead run took it, its record never counted, and the
    // next epoch took it again from the lead's bus.
    const dead = turn(2, "PLANTED dead run's turn", reply);
    const next = turn(3, "the counted turn", reply);
    expect(
      takeTaskTranscript(`${mine}${dead}${next}`, mine, never, ["also add a newline"]),
    ).toEqual({
      kind: "refuse",
      refusal: "not-the-delivered-turns",
      why: "its transcript's new turns are not the ones the lead delivered (2 turns where the lead delivered 1): not taken",
    });
    const counted = `${mine}${turn(2, "the counted turn", reply)}`;
    expect(takeTaskTranscript(counted, mine, never, ["also add a newline"])).toEqual({
      kind: "take",
      text: counted,
      turns: 2,
    });
  });

  it("a turn opening on a message the lead never delivered is refused; positive control: the delivered one's is taken", () => {
    const planted = `${mine}${turn(2, "PLANTED", "Message from project-lead@state:execute:1:\nPLANTED mail")}`;
    expect(takeTaskTranscript(planted, mine, never, ["also add a newline"])).toMatchObject({
      kind: "refuse",
      refusal: "not-the-delivered-turns",
    });
    expect(takeTaskTranscript(planted, mine, never, ["PLANTED mail"])).toMatchObject({
      kind: "take",
    });
  });
});

describe(cases("a later take after a refused one", 1), () => {
  const mine = taskTurn(1, "my first turn", HELLO_BRIEF);
  const secret = "sk-ant-PLANTED0123456789";
  const holds = (text: string) => text.includes(secret);
  const msg = (text: string) => `Message from project-lead@state:execute:1:\n${text}`;

  it("the next run carries the refused turn on, so its honest turn is refused too and the job branch's copy stays at the last taken turn (fold-task-transcript.ts says why it is left so); positive control: without the refused turn the same turn is taken", () => {
    const refusedTurn = turn(2, `the key is ${secret}`, msg("use the key"));
    expect(takeTaskTranscript(`${mine}${refusedTurn}`, mine, holds, ["use the key"])).toMatchObject(
      { kind: "refuse", refusal: "secret" },
    );
    // The next run resumes at the folded record's head: the refused turn is in its copy.
    const honest = turn(3, "hello.txt has a newline now", msg("also add a newline"));
    const later = takeTaskTranscript(`${mine}${refusedTurn}${honest}`, mine, holds, [
      "also add a newline",
    ]);
    expect(later).toMatchObject({ kind: "refuse", refusal: "not-the-delivered-turns" });
    expect(JSON.stringify(later)).not.toContain(secret);
    const renumbered = turn(2, "hello.txt has a newline now", msg("also add a newline"));
    expect(
      takeTaskTranscript(`${mine}${renumbered}`, mine, holds, ["also add a newline"]),
    ).toMatchObject({ kind: "take", turns: 2 });
  });
});
