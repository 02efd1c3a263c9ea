// A task's own run is a runner an agent's commands ran on, so everything on its branch is hostile —
// its turn records and its pushes. The lead folds a record only after checking it
// (src/engine/fanout/fold-task-records.ts); a branch is deleted with a lease naming its commit, so
// a late push cannot bring it back (src/engine/fanout/leased-refs.ts). Each class runs against the
// defence and, as a positive control, against a naive fold or a raw git push that shows the attack
// would work without it.

import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldTaskRecords, type TaskLedger } from "../../src/engine/fanout/fold-task-records.js";
import { pushLeased, type RunGit } from "../../src/engine/fanout/leased-refs.js";
import {
  parseTaskTurnRecord,
  TaskTurnRecordSchema,
  type TaskTurnRecord,
} from "../../src/records/task-turn-record.js";
import { cases } from "../support/adversarial/count.js";

const LEAD = "project-lead@job:7";
const ctx = { job: 7, task: "parser", visible: new Set([LEAD]) };
const ledger: TaskLedger = { epoch: 3, folded: 2, charged: {}, allowanceUsd: 1, callUsd: 0.1 };
const good = (over: Partial<TaskTurnRecord> = {}): TaskTurnRecord => ({
  v: 1,
  job: 7,
  task: "parser",
  epoch: 3,
  seq: 3,
  run: "99",
  calls: 1,
  costUsd: 0.1,
  ended: true,
  sends: [{ to: LEAD, kind: "report", text: "ok" }],
  done: true,
  head: "b".repeat(40),
  ...over,
});

/** Records a hostile run could write, each one check away from counting. */
const FORGED: [string, TaskTurnRecord][] = [
  ["a newer epoch than the lead dispatched", good({ epoch: 4 })],
  ["an epoch the lead gave up on", good({ epoch: 2 })],
  ["another job's record", good({ job: 8 })],
  ["another task's record", good({ task: "lexer" })],
  [
    "a send to a sibling task",
    good({ sends: [{ to: "worker@task:lexer", kind: "reply", text: "x" }] }),
  ],
  [
    "a send to the orchestrator",
    good({ sends: [{ to: "orchestrator@job:7", kind: "report", text: "x" }] }),
  ],
  [
    "a send to a person's proxy",
    good({ sends: [{ to: "proxy@escalation:q1", kind: "ask", text: "x" }] }),
  ],
  ["a cost past the allowance", good({ calls: 20, costUsd: 2 })],
  ["a turn already folded, replayed", good({ seq: 2 })],
  ["a turn after a gap", good({ seq: 5 })],
];

/** What a fold without checks would do: every ended record's decisions count. */
const naiveFold = (records: TaskTurnRecord[]) => records.filter((r) => r.ended);

describe(cases("forged turn records are never folded", FORGED.length, "records"), () => {
  it.each(FORGED)("%s", (_name, record) => {
    const r = foldTaskRecords(ledger, [record], ctx);
    expect(r.folded).toEqual([]);
  });

  it("positive control: a fold without the checks takes every one of them", () => {
    expect(naiveFold(FORGED.map(([, r]) => r))).toHaveLength(FORGED.length);
  });

  it("control: the same record, well formed, folds", () => {
    expect(foldTaskRecords(ledger, [good()], ctx).folded).toHaveLength(1);
  });
});

/** Shapes that never parse as a record, where the file enters. */
const MALFORMED: [string, unknown][] = [
  ["an extra field (a smuggled decision)", { ...good(), approve: true }],
  ["a task id that is a path", { ...good(), task: "../../cfa/7" }],
  ["a negative cost", { ...good(), costUsd: -5 }],
  ["a run id that is not a number", { ...good(), run: "1; rm -rf /" }],
  ["a head that is not a commit", { ...good(), head: "HEAD~1" }],
  ["a huge send list", { ...good(), sends: Array.from({ length: 51 }, () => good().sends[0]) }],
];

describe(
  cases("malformed record files are refused where they enter", MALFORMED.length, "files"),
  () => {
    it.each(MALFORMED)("%s", (_name, value) => {
      expect(parseTaskTurnRecord(JSON.stringify(value)).ok).toBe(false);
    });

    it("positive control: without the schema each one parses as JSON", () => {
      for (const [, v] of MALFORMED)
        expect(() => JSON.parse(JSON.stringify(v)) as unknown).not.toThrow();
      expect(TaskTurnRecordSchema.safeParse(good()).success).toBe(true);
    });
  },
);

describe(cases("a deleted task branch stays deleted", 2, "late pushes"), () => {
  let root: string;
  let work: string;
  let bare: string;
  const sh = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  const run: RunGit = (args) => Promise.resolve(sh(work, ...args));
  const commitEmpty = (message: string) =>
    sh(
      work,
      "-c",
      "user.name=a",
      "-c",
      "user.email=a@b",
      "commit",
      "--quiet",
      "--allow-empty",
      "-m",
      message,
    );
  const REF = "refs/heads/cfa/7-parser";
  const exists = () => {
    try {
      sh(bare, "rev-parse", "--verify", "--quiet", REF);
      return true;
    } catch {
      return false;
    }
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "cfa-adv-lease-"));
    bare = join(root, "remote.git");
    work = join(root, "work");
    sh(root, "init", "--quiet", "--bare", bare);
    sh(root, "init", "--quiet", work);
    commitEmpty("task work");
    sh(work, "push", "--quiet", bare, `HEAD:${REF}`);
    // WITHDRAWN: the lead deleted the branch, its lease naming the commit it saw.
    const head = sh(work, "rev-parse", "HEAD").trim();
    expect(await pushLeased(run, bare, [{ ref: REF, to: null, lease: { sha: head } }])).toEqual({
      kind: "pushed",
    });
    expect(exists()).toBe(false);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("the stale run's next push, leased on its own last commit, is refused and re-creates nothing", async () => {
    const head = sh(work, "rev-parse", "HEAD").trim();
    commitEmpty("late turn");
    const late = sh(work, "rev-parse", "HEAD").trim();
    const out = await pushLeased(run, bare, [{ ref: REF, to: late, lease: { sha: head } }]);
    expect(out.kind).toBe("moved");
    expect(exists()).toBe(false);
  });

  it("a lease that names no commit is refused before git runs", async () => {
    await expect(
      pushLeased(run, bare, [{ ref: REF, to: null, lease: { absent: true } }]),
    ).rejects.toThrow(/lease naming its commit/);
    await expect(
      pushLeased(run, bare, [{ ref: REF, to: "c".repeat(40), lease: { sha: "HEAD" } }]),
    ).rejects.toThrow(/names no commit/);
    expect(exists()).toBe(false);
  });

  it("positive control: an empty lease re-creates the deleted branch", () => {
    const head = sh(work, "rev-parse", "HEAD").trim();
    sh(work, "push", "--quiet", `--force-with-lease=${REF}:`, bare, `${head}:${REF}`);
    expect(exists()).toBe(true);
  });
});
