// A task's own run on GitHub, over the fake GitHub and a bare repository as its git side, each run
// on a fresh runner (a new clone, as actions/checkout leaves it):
// - a run of a stale epoch, of a task no longer open, or of a withdrawn job exits at once
//   with one line: no ref on GitHub moves and no API call is made;
// - the run the lead trusts runs its worker (here with no message waiting: it writes nothing);
// - the task job's last step (`wake-lead`) dispatches a run of the job's lead, with only
//   the job as input, on the default branch, as the lead's own wake-again does.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newJobRecord, serializeJobRecord } from "../../../src/protocol/job-record.js";
import type { State } from "../../../src/protocol/fsm.js";
import {
  initialEngineState,
  withEngineState,
  type EngineState,
} from "../../../src/records/engine-state.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { recording } from "../../support/engine/script.js";
import { dispatchedLedger } from "../../support/engine/task-ledger.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { createGitHubJob, git, type GitHubJob } from "../../support/github/github-job.js";
import { removeDir, tempDir } from "../../support/git/temp-repo.js";

const paths = jobPaths(1);

/** The lead's run has dispatched task api with `epoch`; the job's branch says so. */
function leadDispatched(
  job: GitHubJob,
  state: State,
  more: { epoch?: number; status?: "open" | "merged" } = {},
): void {
  const engine: EngineState = {
    ...initialEngineState("ana"),
    tasks: {
      api: {
        thread: "dispatch:api",
        branch: paths.taskBranch("api"),
        dir: "task-api",
        base: git(job.github.bare, "rev-parse", "main"),
        brief: "Build the API",
        status: more.status ?? "open",
        verifyFailures: 0,
      },
    },
    fanout: {
      tasks: {
        api: dispatchedLedger(more.epoch ?? 2),
      },
    },
  };
  const record = withEngineState(
    { ...newJobRecord({ job: 1, title: "Greet", at: "2026-11-22T10:00:00.000Z" }), state },
    engine,
  );
  const dir = tempDir("cfa-lead-");
  try {
    git(dir, "clone", "--quiet", job.github.bare, "c");
    const c = join(dir, "c");
    git(c, "config", "user.name", "cfa");
    git(c, "config", "user.email", "cfa@example.invalid");
    git(c, "branch", paths.taskBranch("api"));
    git(c, "checkout", "--quiet", "-b", paths.branch);
    mkdirSync(join(c, paths.dir), { recursive: true });
    writeFileSync(join(c, paths.state), serializeJobRecord(record));
    git(c, "add", ".");
    git(c, "commit", "--quiet", "-m", "cfa #1: the lead dispatched task api");
    git(c, "push", "--quiet", "origin", paths.branch, paths.taskBranch("api"));
  } finally {
    removeDir(dir);
  }
}

const refsOf = (job: GitHubJob) =>
  git(job.github.bare, "for-each-ref", "--format=%(refname) %(objectname)");
const taskRun = (epoch: number) => ({
  args: ["--job", "1", "--task", "api", "--epoch", String(epoch)],
});

describe("a task's own run on GitHub", () => {
  const mocks = useGitHubMocks();
  let job: GitHubJob | undefined;
  afterEach(async () => job?.cleanup());

  it.each([
    [
      "a stale epoch",
      "EXECUTE" as const,
      {},
      1,
      "epoch 1 is stale: the lead dispatched task api again (epoch 2)",
    ],
    ["a merged task", "EXECUTE" as const, { status: "merged" as const }, 2, "task api is merged"],
    ["a withdrawn job", "WITHDRAWN" as const, {}, 2, "the job is WITHDRAWN"],
  ])(
    "%s: exits at once with one line, writing nothing and calling no API",
    async (_name, state, more, epoch, why) => {
      job = await createGitHubJob({ recording: recording({}) });
      leadDispatched(job, state, more);
      const before = refsOf(job);

      expect(await job.runWorker(1, undefined, taskRun(epoch))).toBe(0);

      expect(job.lines.filter((l) => l.includes("cfa/worker: job #1 task api"))).toEqual([
        `cfa/worker: job #1 task api (epoch ${epoch}): ${why}; this run exits without writing`,
      ]);
      expect(refsOf(job)).toBe(before);
      expect(mocks.operations()).toEqual([]);
    },
  );

  it("the run the lead trusts, its worker with no message waiting: it reads the issue and the config, records no turn, moves no ref and writes through no API", async () => {
    job = await createGitHubJob({ recording: recording({}), routes: ["issue", "content"] });
    leadDispatched(job, "EXECUTE");
    const before = refsOf(job);

    const code = await job.runWorker(1, undefined, taskRun(2));
    expect(job.lines.filter((l) => l.includes("failed"))).toEqual([]);
    expect(code).toBe(0);

    expect(job.lines.join("\n")).toContain("job #1 task api (epoch 2): 0 turn(s) recorded");
    expect(refsOf(job)).toBe(before);
    const routes = job.github.answered.map((a) => a.route);
    expect(routes).toContain("issue");
    // Reads only: no comment, reaction, check, pull request, ref or dispatch.
    expect(routes.filter((r) => !["repo", "issue", "content", "graphql"].includes(r))).toEqual([]);
    expect(job.github.comments).toEqual([]);
  });

  it("the task job's last step wakes the lead: one dispatch of the job's own workflow, with only the job", async () => {
    job = await createGitHubJob({ recording: recording({}) });
    job.github.install(["repo", "dispatch"]);
    const before = refsOf(job);

    expect(
      await job.runWorker(1, undefined, {
        args: ["--job", "1", "--wake-lead"],
        env: {
          GITHUB_WORKFLOW_REF: "octo-org/hello-world/.github/workflows/agents.yml@refs/heads/main",
          // The step passes no model key (templates/workflows/*.yml): none is needed.
          ANTHROPIC_API_KEY: "",
        },
      }),
    ).toBe(0);

    expect(job.github.dispatches).toEqual([{ workflow: "agents.yml", ref: "main", job: "1" }]);
    expect(refsOf(job)).toBe(before);
  });

  it("a wake that GitHub refuses (no actions: write) is one warning naming the fix, and the step fails", async () => {
    job = await createGitHubJob({ recording: recording({}) });
    job.github.install(["repo", "dispatch"]);
    job.github.failures.set("dispatch", {
      status: 403,
      message: "Resource not accessible by integration",
    });

    expect(
      await job.runWorker(1, undefined, {
        args: ["--job", "1", "--wake-lead"],
        env: {
          GITHUB_WORKFLOW_REF: "octo-org/hello-world/.github/workflows/cfa.yml@refs/heads/main",
        },
      }),
    ).toBe(1);
    const warnings = job.lines.filter((l) => l.includes("could not wake its lead"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("give the task job `actions: write`");
  });
});
