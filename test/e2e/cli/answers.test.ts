// Answers that point to the right verb. Withdraw stops a job with no key (it
// runs no agent); `answer` on a gate — which the log shows as "ASSERT q1 … Is this what you
// want?" — names approve and reject; every suggested git command names the repository when
// it is not the current folder.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { REPLAY_CLOCK_START } from "../../../src/cli/run-replay.js";
import { waitingJob, type WaitingJob } from "../../support/cli/waiting-job.js";
import { git } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

let root: string;
let gate: WaitingJob;
let question: WaitingJob;
let paused: WaitingJob;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-answers-test-"));
  [gate, question, paused] = await Promise.all([
    waitingJob(root, "gate", "gate"),
    waitingJob(root, "question", "question"),
    waitingJob(root, "paused", "gate"),
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
      history: { to: string; at: string }[];
    };
    expect(state.state).toBe("WITHDRAWN");
    // The replay's clock carries on in its repository: the withdrawal is stamped after the
    // replayed records, on the recording's day, not months away (run-replay.ts's start).
    const withdrawn = state.history.at(-1)?.at ?? "";
    expect(withdrawn.slice(0, 10)).toBe("2026-03-02");
    expect(withdrawn > REPLAY_CLOCK_START).toBe(true);
    expect(state.turns).toBe(1); // the replay's one turn: withdrawing ran none
    expect(question.git("branch", "--list", "cfa/1-*")).toBe("");
  });

  it("again, on a job WITHDRAWN already: says so, changes nothing, exits 0 (as gh issue close)", async () => {
    const head = question.git("rev-parse", "cfa/1");
    const io = question.io();
    expect(await main(["withdraw", "1", "--repo", question.repo], io)).toBe(0);
    expect(io.out()).toBe(
      "job #1 is WITHDRAWN already; nothing changed. Its record stays on cfa/1.\n",
    );
    expect(question.git("rev-parse", "cfa/1")).toBe(head);
  });
});

describe("cfa pause", () => {
  it("ends with the command that carries the job on: resume, not the gate's approve", async () => {
    const io = paused.io();
    expect(await main(["pause", "1", "lunch", "--repo", paused.repo], io)).toBe(0);
    const last = io.out().trimEnd().split("\n").at(-1);
    expect(last).toMatch(
      new RegExp(
        `^INTENT — paused by @ana since \\S+ \\(lunch\\): \`cfa resume 1 --repo ${paused.repo}\` carries it on\\.$`,
      ),
    );
    expect(io.out()).not.toContain("cfa approve");
  });
});

describe("bad input names what was wrong", () => {
  it("cfa approve -1: a job number, not an unknown option", async () => {
    const io = gate.io();
    expect(await main(["approve", "-1", "--repo", gate.repo], io)).toBe(2);
    expect(io.err()).toBe(
      'cfa approve: <N> must be a job (issue) number such as 1, got "-1"\nRun `cfa approve --help` for usage.\n',
    );
  });

  it("--repo at a bare repository: says it is one and to clone it", async () => {
    git(root, "init", "--quiet", "--bare", "bare.git");
    const bare = join(root, "bare.git");
    const io = gate.io();
    expect(await main(["approve", "1", "--repo", bare], io)).toBe(1);
    expect(io.err()).toBe(
      `cfa: ${bare} is a bare repository, with no working tree for a job to work in: clone it (\`git clone ${bare} <folder>\`) and run cfa in the clone.\n`,
    );
  });
});
