import { describe, expect, it } from "vitest";
import {
  initialEngineState,
  withEngineState,
  type EngineState,
} from "../../../src/records/engine-state.js";
import { newJobRecord, serializeJobRecord } from "../../../src/protocol/job-record.js";
import type { State } from "../../../src/protocol/fsm.js";
import { commandRefusalComment } from "../../../src/comments/outsider-refusal-comment.js";
import { runWorker } from "../../../src/worker/run-worker.js";
import { TEST_PACING, expectBody, nockGitHub, useGitHubMocks } from "../../support/github/index.js";

const R = "/repos/octo/hello";
const ENV = {
  GITHUB_REPOSITORY: "octo/hello",
  GITHUB_TOKEN: "ghs_sweepTokenSweepToken0001",
  GITHUB_WORKFLOW_REF: "octo/hello/.github/workflows/cfa.yml@refs/heads/main",
  GITHUB_EVENT_NAME: "schedule",
};
const person = (login: string, type = "User") => ({ login, type, id: 1 });
const issue = (number: number) => ({
  number,
  state: "open",
  labels: [{ name: "cfa" }],
  title: "t",
  user: person("ana"),
});

function stateJson(job: number, state: State, cursor: number, pr: number | null, waiting: boolean) {
  const escalations: EngineState["escalations"] = waiting
    ? { q1: { caller: "lead", kind: "gate", state, text: "ok?", postedSeq: 2 } }
    : {};
  const engine: EngineState = {
    ...initialEngineState("ana"),
    cursor: { comment: cursor, review: 0 },
    pr,
    escalations,
  };
  const record = { ...newJobRecord({ job, title: "t", at: "2026-01-01T00:00:00Z" }), state };
  return {
    type: "file",
    encoding: "base64",
    content: Buffer.from(serializeJobRecord(withEngineState(record, engine))).toString("base64"),
  };
}

/**
 * What every sweep reads first: no .github/cfa.yml (or `config`, base64), a cfa/N branch and
 * an open cfa-labelled issue for each of `jobs`, and no run of the workflow in progress or
 * queued. Returns the scope for the test's own calls.
 */
function listing(jobs: number[], config?: string) {
  const scope = nockGitHub();
  const cfaYml = scope.get(`${R}/contents/.github%2Fcfa.yml`);
  if (config === undefined) cfaYml.reply(404, { message: "Not Found" });
  else cfaYml.reply(200, { type: "file", encoding: "base64", content: config });
  scope.get(`${R}/git/matching-refs/heads%2Fcfa%2F`).reply(
    200,
    jobs.map((n) => ({ ref: `refs/heads/cfa/${n}` })),
  );
  scope
    .get(`${R}/issues`)
    .query({ labels: "cfa", state: "open", per_page: "100" })
    .reply(200, jobs.map(issue));
  for (const status of ["in_progress", "queued"]) {
    scope
      .get(`${R}/actions/workflows/cfa.yml/runs`)
      .query({ status, per_page: "100" })
      .reply(200, { total_count: 0, workflow_runs: [] });
  }
  return scope;
}

/**
 * What the sweep reads of job `job`: its state.json on cfa/N (`stateFile`), its comments,
 * and its pull request and the reviews on it when `pull` is given.
 */
function jobReads(
  scope: ReturnType<typeof nockGitHub>,
  job: number,
  stateFile: object,
  comments: object[],
  pull?: { number: number; state: "open" | "closed" },
) {
  scope
    .get(`${R}/contents/.cfa%2Fjobs%2F${job}%2Fstate.json`)
    .query({ ref: `cfa/${job}` })
    .reply(200, stateFile)
    .get(`${R}/issues/${job}/comments`)
    .query({ per_page: "100" })
    .reply(200, comments);
  if (pull === undefined) return;
  scope
    .get(`${R}/pulls/${pull.number}`)
    .reply(200, pull)
    .get(`${R}/pulls/${pull.number}/reviews`)
    .query({ per_page: "100" })
    .reply(200, []);
}

/**
 * An entry of a folder's listing as GitHub's contents API answers for a directory: "an array
 * of objects, one object for each item in the directory"
 * (https://docs.github.com/en/rest/repos/contents#get-repository-content).
 */
function dirEntry(name: string) {
  const path = `.cfa/jobs/${name}`;
  return {
    type: "dir",
    size: 0,
    name,
    path,
    sha: "a84d88e7554fc1fa21bcbc4efae3c782a70d2b9d",
    url: `https://api.github.com${R}/contents/${path}?ref=cfa%2F3`,
    git_url: `https://api.github.com${R}/git/trees/a84d88e7554fc1fa21bcbc4efae3c782a70d2b9d`,
    html_url: `https://github.com/octo/hello/tree/cfa/3/${path}`,
    download_url: null,
    _links: {
      self: `https://api.github.com${R}/contents/${path}?ref=cfa%2F3`,
      git: `https://api.github.com${R}/git/trees/a84d88e7554fc1fa21bcbc4efae3c782a70d2b9d`,
      html: `https://github.com/octo/hello/tree/cfa/3/${path}`,
    },
  };
}

/** The default branch, and a dispatch of the workflow on it for each of `jobs`. */
function dispatches(scope: ReturnType<typeof nockGitHub>, jobs: number[]) {
  scope.get(R).reply(200, { default_branch: "main" });
  for (const job of jobs) {
    scope
      .post(
        `${R}/actions/workflows/cfa.yml/dispatches`,
        expectBody({ ref: "main", inputs: { job: String(job) } }),
      )
      .reply(204);
  }
}

/** Runs the worker with `argv` in the schedule's environment: its exit code and its lines. */
async function sweep(argv: string[], options: Partial<Parameters<typeof runWorker>[2]> = {}) {
  const lines: string[] = [];
  const print = (l: string) => void lines.push(l);
  const code = await runWorker(argv, ENV, { print, githubPacing: TEST_PACING, ...options });
  return { code, lines };
}

describe("the sweep (schedule)", () => {
  const github = useGitHubMocks();

  it("dispatches exactly the jobs that need a worker, and says why", async () => {
    const scope = nockGitHub();
    scope.get(`${R}/contents/.github%2Fcfa.yml`).reply(404, { message: "Not Found" });
    scope.get(`${R}/git/matching-refs/heads%2Fcfa%2F`).reply(
      200,
      ["cfa/1", "cfa/1-api", "cfa/2", "cfa/3", "cfa/5"].map((b) => ({ ref: `refs/heads/${b}` })),
    );
    scope
      .get(`${R}/issues`)
      .query({ labels: "cfa", state: "open", per_page: "100" })
      .reply(200, [issue(1), issue(2), issue(4), issue(5), issue(6)]);
    scope
      .get(`${R}/actions/workflows/cfa.yml/runs`)
      .query({ status: "in_progress", per_page: "100" })
      .reply(200, { total_count: 1, workflow_runs: [{ id: 9, display_title: "cfa job #5" }] })
      .get(`${R}/actions/workflows/cfa.yml/runs`)
      .query({ status: "queued", per_page: "100" })
      .reply(200, { total_count: 0, workflow_runs: [] });
    // Job 1 waits on its gate; the newest comment after its cursor is the bot's own.
    jobReads(scope, 1, stateJson(1, "INTENT", 50, null, true), [
      { id: 50, user: person("ana") },
      { id: 60, user: person("github-actions[bot]", "Bot") },
    ]);
    // Job 2 waits too, but a person commented since.
    jobReads(scope, 2, stateJson(2, "PLAN", 50, 9, true), [{ id: 55, user: person("ana") }], {
      number: 9,
      state: "open",
    });
    // Job 3 is DONE: its branch's `.cfa/jobs/` is listed for a follow-up (records/job-paths.ts),
    // whose records are read instead; that one is DONE too: nothing more is read about it.
    scope
      .get(`${R}/contents/.cfa%2Fjobs%2F3%2Fstate.json`)
      .query({ ref: "cfa/3" })
      .reply(200, stateJson(3, "DONE", 0, null, false))
      .get(`${R}/contents/.cfa%2Fjobs`)
      .query({ ref: "cfa/3" })
      .reply(200, [dirEntry("3"), dirEntry("3.2"), dirEntry("7")])
      .get(`${R}/contents/.cfa%2Fjobs%2F3.2%2Fstate.json`)
      .query({ ref: "cfa/3" })
      .reply(200, stateJson(3, "DONE", 0, null, false));
    // Issue #4 was labelled by a writer and never started; issue #6 by a reader.
    for (const [n, login, permission] of [
      [4, "ana", "write"],
      [6, "rea", "read"],
    ] as const) {
      scope
        .get(`${R}/issues/${n}`)
        .reply(200, issue(n))
        .get(`${R}/issues/${n}/events`)
        .query({ per_page: "100" })
        .reply(200, [{ id: 1, event: "labeled", actor: person(login), label: { name: "cfa" } }])
        .get(`${R}/collaborators/${login}/permission`)
        .reply(200, { permission, role_name: permission, user: person(login) });
    }
    dispatches(scope, [2, 4]);

    const { code, lines } = await sweep([]);
    expect(code).toBe(0);

    expect(lines.filter((l) => l.startsWith("cfa/worker: woke"))).toEqual([
      "cfa/worker: woke job #2: a comment it has not read",
      "cfa/worker: woke job #4: labelled by @ana but never started",
    ]);
    expect(github.recorder().invalid()).toEqual([]);
  });

  it.each([
    [true, "an outsider's command the app already answered wakes nothing"],
    [false, "positive control: the same command unanswered wakes the job"],
  ] as const)("answered=%s: %s", async (answered, _what) => {
    const scope = listing([1]);
    const reply = commandRefusalComment({
      job: 1,
      comment: 70,
      login: "mallory",
      permission: "read",
      command: "withdraw",
    });
    jobReads(scope, 1, stateJson(1, "INTENT", 50, null, true), [
      { id: 50, user: person("ana"), body: "hi" },
      { id: 70, user: person("mallory"), body: "/withdraw" },
      ...(answered ? [{ id: 71, user: person("cfa-bot[bot]", "Bot"), body: reply }] : []),
    ]);
    dispatches(scope, answered ? [] : [1]);
    if (answered) {
      scope
        .get(`${R}/collaborators/mallory/permission`)
        .reply(200, { permission: "read", role_name: "read", user: person("mallory") });
    }
    const { code, lines } = await sweep([]);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.startsWith("cfa/worker: woke"))).toEqual(
      answered ? [] : ["cfa/worker: woke job #1: a comment it has not read"],
    );
  });

  it("wakes a job whose pull request was closed meanwhile, so its wake withdraws it", async () => {
    const scope = listing([8]);
    // Waiting on its gate, nothing unread: only the closed pull request says it needs a run.
    jobReads(scope, 8, stateJson(8, "PLAN", 50, 21, true), [{ id: 50, user: person("ana") }], {
      number: 21,
      state: "closed",
    });
    dispatches(scope, [8]);

    const { code, lines } = await sweep(["--sweep"]);
    expect(code).toBe(0);
    expect(lines).toContain("cfa/worker: woke job #8: its pull request #21 was closed");
  });

  it("wakes a job whose gate is due its reminder, once: a sweep after the reminder was noted wakes nothing", async () => {
    const config = Buffer.from("gates: { remindAfterHours: 24 }\n").toString("base64");
    const gateState = (remindedAt?: string) => {
      const engine: EngineState = {
        ...initialEngineState("ana"),
        cursor: { comment: 50, review: 0 },
        pr: 21,
        escalations: {
          q1: {
            caller: "lead",
            kind: "gate",
            state: "PLAN",
            text: "ok?",
            postedSeq: 2,
            postedAt: "2026-11-22T10:00:00.000Z",
            ...(remindedAt ? { remindedAt } : {}),
          },
        },
      };
      const record = {
        ...newJobRecord({ job: 8, title: "t", at: "2026-11-22T09:00:00.000Z" }),
        state: "PLAN" as const,
      };
      return {
        type: "file",
        encoding: "base64",
        content: Buffer.from(serializeJobRecord(withEngineState(record, engine))).toString(
          "base64",
        ),
      };
    };
    const sweepOnce = async (remindedAt: string | undefined, dispatch: boolean) => {
      const scope = listing([8], config);
      jobReads(scope, 8, gateState(remindedAt), [{ id: 50, user: person("ana") }], {
        number: 21,
        state: "open",
      });
      dispatches(scope, dispatch ? [8] : []);
      const clock = { now: () => new Date("2026-11-23T11:00:00.000Z") };
      const { code, lines } = await sweep(["--sweep"], { clock });
      expect(code, lines.join("\n")).toBe(0);
      expect(scope.pendingMocks()).toEqual([]);
      return lines;
    };
    expect(await sweepOnce(undefined, true)).toContain(
      "cfa/worker: woke job #8: gate q1 waited 25 h: its reminder is due",
    );
    // The woken run queued the reminder and noted it: the next sweep leaves the job alone.
    const second = await sweepOnce("2026-11-23T11:05:00.000Z", false);
    expect(second.join("\n")).not.toContain("woke job #8");
  });

  it("a dry run says what it would wake and dispatches nothing", async () => {
    const scope = listing([2]);
    jobReads(scope, 2, stateJson(2, "EXECUTE", 0, null, false), []);
    dispatches(scope, []);

    const { code, lines } = await sweep(["--sweep", "--dry-run"]);
    expect(code).toBe(0);

    expect(lines).toContain(
      "cfa/worker: would wake job #2: not waiting on anyone, and no run is working on it",
    );
  });

  it("one unreadable job fails the run but not the others", async () => {
    const scope = listing([1, 2]);
    scope
      .get(`${R}/contents/.cfa%2Fjobs%2F1%2Fstate.json`)
      .query({ ref: "cfa/1" })
      .reply(200, {
        type: "file",
        encoding: "base64",
        content: Buffer.from("{oops").toString("base64"),
      });
    jobReads(scope, 2, stateJson(2, "EXECUTE", 0, null, false), []);
    dispatches(scope, [2]);

    const { code, lines } = await sweep(["--sweep"]);
    expect(code).toBe(1);

    expect(lines.some((l) => l.startsWith("::error::cfa/worker: sweep: job #1:"))).toBe(true);
    expect(lines).toContain(
      "cfa/worker: woke job #2: not waiting on anyone, and no run is working on it",
    );
  });
});
