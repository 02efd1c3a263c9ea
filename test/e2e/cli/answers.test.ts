// Issue 19 §5: answers that point to the right verb. Withdraw stops a job with no key (it
// runs no agent); `answer` on a gate — which the log shows as "ASSERT q1 … Is this what you
// want?" — names approve and reject; every suggested git command names the repository when
// it is not the current folder.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { waitingJob, type WaitingJob } from "../../support/cli/waiting-job.js";
import { bound } from "../../support/time-bound.js";

let root: string;
let gate: WaitingJob;
let question: WaitingJob;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-answers-test-"));
  [gate, question] = await Promise.all([
    waitingJob(root, "gate", "gate"),
    waitingJob(root, "question", "question"),
  ]);
}, bound(60_000));
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("cfa answer on a gate", () => {
  it.each([[["answer", "1", "--id", "q1", "yes"]], [["answer", "1", "yes"]]])(
    "%j points to approve and reject, and changes nothing",
    async (argv) => {
      const head = gate.git("rev-parse", "cfa/1");
      const io = gate.io();
      expect(await main([...argv, "--repo", gate.repo], io)).toBe(1);
      expect(io.err()).toBe(
        `cfa: q1 of job #1 asks for your review of INTENT.md, not an answer: \`cfa approve 1 --repo ${gate.repo}\` or \`cfa reject 1 --comment "…" --repo ${gate.repo}\`.\n`,
      );
      expect(io.out()).toBe("");
      expect(gate.git("rev-parse", "cfa/1")).toBe(head);
    },
  );

  it("the log it answers names the gate as the id it refuses (ASSERT q1), so the two agree", async () => {
    const io = gate.io();
    expect(await main(["watch", "1", "--repo", gate.repo], io)).toBe(0);
    expect(io.out()).toContain("intent-lead   ASSERT    q1: INTENT.md ready");
    expect(io.out()).toContain(
      `INTENT — waiting on you to review INTENT.md: \`cfa approve 1 --repo ${gate.repo}\``,
    );
    // The artifact is read from the repository named, wherever the command runs.
    expect(io.out()).toContain(`read it: git -C ${gate.repo} show cfa/1:.cfa/jobs/1/INTENT.md`);
  });

  it("an id that is neither is refused naming the open one", async () => {
    const io = question.io();
    expect(await main(["answer", "1", "--id", "q4", "yes", "--repo", question.repo], io)).toBe(1);
    expect(io.err()).toBe("cfa: job #1 has no open question q4 (open: q1).\n");
  });
});

describe("cfa withdraw", () => {
  it("stops a job without ANTHROPIC_API_KEY: no agent runs, the job ends WITHDRAWN", async () => {
    const io = question.io();
    expect(io.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(await main(["withdraw", "1", "not needed", "--repo", question.repo], io)).toBe(0);
    expect(io.err()).toBe("");
    expect(io.out()).toContain("▶ @ana withdraws job #1");
    expect(io.out()).toContain("WITHDRAWN — not needed. The record stays on cfa/1.");
    const state = JSON.parse(question.git("show", "cfa/1:.cfa/jobs/1/state.json")) as {
      state: string;
      turns: number;
    };
    expect(state.state).toBe("WITHDRAWN");
    expect(state.turns).toBe(1); // the replay's one turn: withdrawing ran none
    expect(question.git("branch", "--list", "cfa/1-*")).toBe("");
  });
});
