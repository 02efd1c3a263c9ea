// The lead's copy of a task run's transcript (fold-task-transcript.ts) against real git: what
// it reads is the transcript at the commit a delivered record names — only a commit on the
// task branch, only a regular file at the transcript's path — and where it writes is the
// worker's own record in the job worktree. A refusal is said once: its key stays in the
// task's ledger.

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { transcriptLines } from "../../../../src/agents/transcript/index.js";
import { foldTaskTranscript } from "../../../../src/engine/fanout/fold-task-transcript.js";
import { applyChange } from "../../../../src/engine/job/session.js";
import { jobPaths } from "../../../../src/records/job-paths.js";
import { TASK_TRANSCRIPT_PATH } from "../../../../src/records/task-turn-record.js";
import { memorySession } from "../../../support/engine/memory-session.js";
import { taskLedger } from "../../../support/engine/task-ledger.js";
import { git } from "../../../support/git/temp-repo.js";

const USAGE = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const WORKER = jobPaths(1).instance({ agent: "worker", thread: "dispatch:t1" });

function turn(n: number, text: string): string {
  return transcriptLines(
    n,
    [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "text", text }] },
    ],
    { usage: USAGE, stop: "end_turn" },
  )
    .map((l) => `${l}\n`)
    .join("");
}

/** Job 1 with task t1 open in a run of its own, its branch in a real repository. */
async function withTaskBranch() {
  const m = await memorySession();
  const { s } = m;
  const repo = s.deps.repoDir;
  mkdirSync(repo, { recursive: true });
  git(repo, "init", "--quiet", "--initial-branch=main");
  git(repo, "config", "user.name", "t");
  git(repo, "config", "user.email", "t@example.invalid");
  git(repo, "commit", "--quiet", "--allow-empty", "-m", "base");
  git(repo, "checkout", "--quiet", "-b", "cfa/1-t1");
  applyChange(s, {
    type: "task-recorded",
    id: "t1",
    meta: {
      thread: "dispatch:t1",
      branch: "cfa/1-t1",
      dir: "t1",
      base: "",
      brief: "x",
      status: "open",
      verifyFailures: 0,
    },
  });
  applyChange(s, {
    type: "task-run-recorded",
    id: "t1",
    ledger: taskLedger({ folded: 1 }),
  });
  /** Commits the transcript (or `link`, a symbolic link in its place) on the task branch. */
  const push = (text: string, link = false): string => {
    mkdirSync(join(repo, ".cfa/turns"), { recursive: true });
    const file = join(repo, TASK_TRANSCRIPT_PATH);
    git(repo, "rm", "--quiet", "--cached", "--ignore-unmatch", "--", TASK_TRANSCRIPT_PATH);
    git(repo, "clean", "--quiet", "-f", "--", TASK_TRANSCRIPT_PATH);
    if (link) symlinkSync("/etc/hostname", file);
    else writeFileSync(file, text);
    git(repo, "add", "--force", "--", TASK_TRANSCRIPT_PATH);
    git(repo, "commit", "--quiet", "-m", "turn");
    return git(repo, "rev-parse", "HEAD");
  };
  const worker = () => {
    try {
      return readFileSync(join(s.jobWs.root, WORKER), "utf8");
    } catch {
      return null;
    }
  };
  return { ...m, repo, push, worker };
}

describe("the lead's copy of a task run's transcript", () => {
  it("takes the transcript at a delivered head into the worker's own record; a later head's continuation replaces it", async () => {
    const { s, push, worker } = await withTaskBranch();
    const first = push(turn(1, "one"));
    expect(await foldTaskTranscript(s, "t1", first, ["go"])).toBe(true);
    expect(worker()).toBe(turn(1, "one"));
    const second = push(turn(1, "one") + turn(2, "two"));
    expect(await foldTaskTranscript(s, "t1", second, ["go"])).toBe(true);
    expect(worker()).toBe(turn(1, "one") + turn(2, "two"));
    // Read again at the same head: nothing new, nothing written.
    expect(await foldTaskTranscript(s, "t1", second, ["go"])).toBe(false);
  });

  it("reads nothing at a commit off the task branch, nor a link in the transcript's place", async () => {
    const { s, repo, push, worker } = await withTaskBranch();
    git(repo, "checkout", "--quiet", "-b", "elsewhere");
    const off = push(turn(1, "off the branch"));
    git(repo, "checkout", "--quiet", "cfa/1-t1");
    expect(await foldTaskTranscript(s, "t1", off, ["go"])).toBe(false);
    // Positive control: the same commit, once on the branch, is taken.
    git(repo, "merge", "--quiet", "--ff-only", "elsewhere");
    expect(await foldTaskTranscript(s, "t1", off, ["go"])).toBe(true);
    expect(worker()).toBe(turn(1, "off the branch"));
    const link = push("", true);
    expect(await foldTaskTranscript(s, "t1", link, ["go"])).toBe(false);
    expect(worker()).toBe(turn(1, "off the branch"));
  });

  it("a refusal is said once and kept in the ledger; the worker's record stays as it was", async () => {
    const { s, push, worker, lines } = await withTaskBranch();
    const bad = push(`${turn(1, "one")}not an entry\n`);
    expect(await foldTaskTranscript(s, "t1", bad, ["go"])).toBe(false);
    expect(await foldTaskTranscript(s, "t1", bad, ["go"])).toBe(false);
    expect(lines.filter((l) => l.event === "REFUSED").map((l) => l.detail)).toEqual([
      "task t1's run: its transcript's line 4 is not a transcript entry: not taken",
    ]);
    expect(s.engine.fanout?.tasks.t1?.refused).toEqual(["transcript:not-entries"]);
    expect(worker()).toBeNull();
  });
});
