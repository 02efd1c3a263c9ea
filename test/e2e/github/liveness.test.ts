// Liveness on GitHub (a job outlives a run's time limit; a lost run's calls are charged once), over
// the fake GitHub and a bare repository as its git side, each run on a fresh runner (a new clone, a
// new RUNNER_TEMP):
// - the run's time margin reached mid-turn: the turn stops at its next model call, the run
//   pushes and dispatches the job's next run (the fake records the workflow_dispatch), and
//   the next run finishes the turn, its paid calls replayed from the journal, charged once;
// - a cancellation (SIGINT) stops at once the same way, but a withdrawal posted meanwhile
//   means no next run is dispatched;
// - a run that dies mid-turn (nothing of it ends cleanly): the next run finds the journal on
//   its branch, charges the lost calls once and replays them.

import { describe, expect, it } from "vitest";
import type { Model } from "../../../src/ports/model.js";
import { recording } from "../../support/engine/script.js";
import { ART, slowIntentTurn } from "../../support/engine/recordings.js";
import { useGitHubMocks } from "../../support/github/index.js";
import { FIRST_WAKE_ROUTES, git, jobRecord, routesWith } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import type { Route } from "../../support/github/fake-github.js";
import type { GitHubJob } from "../../support/github/github-job.js";

const LEAD = "intent-lead@state:intent:1";

/** The intent lead's one turn: three model calls, then its gate. */
const script = () => recording({ [LEAD]: slowIntentTurn(1, "Is this it?") });

interface Charged {
  state: string;
  turns: number;
  engine: { calls?: number };
}

/** Counts the calls the model answered (a replayed call never reaches it). */
function counting(onCall: (n: number, request: { instance: string }) => Promise<void> | void) {
  let calls = 0;
  const wrap = (inner: Model): Model => ({
    async complete(request, options) {
      calls += 1;
      await onCall(calls, request);
      return inner.complete(request, options);
    },
  });
  return { wrap, calls: () => calls };
}

describe("liveness on GitHub", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("the time margin reached mid-turn: the turn stops at its next call, the run pushes and dispatches the next, which finishes the turn charging each call once", async () => {
    let fire: (() => void) | null = null;
    const model = counting((n) => {
      // The deadline passes while the lead's second call is in flight.
      if (n === 2) fire?.();
    });
    const job = await newJob({
      recording: script(),
      model: model.wrap,
      routes: routesWith(FIRST_WAKE_ROUTES, { plus: ["update-comment", "dispatch"] }),
    });
    const first = await job.runWorker(1, undefined, {
      deadlineTimer: (_ms, f) => {
        fire = f;
        return () => (fire = null);
      },
    });
    expect(first, job.lines.join("\n")).toBe(0);
    // Two calls answered, the third never asked: the turn stopped at its boundary.
    expect(model.calls()).toBe(2);
    const stopped = jobRecord<Charged>(job);
    expect(stopped.state).toBe("INTENT");
    // The stopped turn is not applied: it counts once, when it is redone.
    expect(stopped.turns).toBe(0);
    expect(stopped.engine.calls).toBe(2);
    expect(job.github.dispatches).toEqual([{ workflow: "cfa.yml", ref: "main", job: "1" }]);
    expect(job.lines.join("\n")).toContain("its time is nearly up");
    // The journal's branch holds the two paid responses for the next runner.
    expect(
      git(job.github.bare, "ls-tree", "--name-only", "cfa-journal/1").split("\n"),
    ).toHaveLength(2);

    // The dispatched run, on a fresh runner: the same turn, its two calls replayed.
    const second = await job.runWorker(1);
    expect(second, job.lines.join("\n")).toBe(0);
    expect(model.calls()).toBe(3);
    const done = jobRecord<Charged>(job);
    expect(done.engine.calls).toBe(3);
    expect(git(job.github.bare, "show", `cfa/1:${ART}/INTENT.md`)).toContain("Greet.");
    expect(job.lines.join("\n")).toMatch(/2 model calls replayed from the journal/);
    expect(job.github.dispatches).toHaveLength(1);
  });

  /** A run cancelled (SIGINT) while the lead's second call is in flight; `before` runs first. */
  async function cancelled(before: (job: GitHubJob) => void, routes: readonly Route[]) {
    const stop = new AbortController();
    const model = counting(async (n) => {
      if (n !== 2) return;
      before(job);
      stop.abort({ reason: "the run was cancelled (SIGINT)", now: true });
      // The call is cut while in flight.
      await new Promise((r) => setTimeout(r, 50));
    });
    // The routes a job's runs call, every one of them (the fake checks none is left unused).
    const job = await newJob({ recording: script(), model: model.wrap, routes });
    expect(await job.runWorker(1, undefined, { stop: stop.signal }), job.lines.join("\n")).toBe(0);
    return job;
  }

  it("a cancellation (SIGINT) stops the turn at once, pushes, and dispatches the job's next run", async () => {
    const j = await cancelled(
      () => undefined,
      ["graphql", "permission", "issue", "create-comment", "create-check", "dispatch"],
    );
    expect(j.github.dispatches).toEqual([{ workflow: "cfa.yml", ref: "main", job: "1" }]);
    expect(jobRecord<Charged>(j).state).toBe("INTENT");
    expect(jobRecord<Charged>(j).engine.calls).toBe(1);
    expect(j.lines.join("\n")).toContain("stopped early: the run was cancelled (SIGINT)");
  });

  it("a cancellation caused by /withdraw dispatches no next run", async () => {
    const j = await cancelled(
      (job) => job.github.comment(1, "ana", "/withdraw not needed"),
      ["graphql", "permission", "issue", "create-comment", "create-check"],
    );
    expect(j.github.dispatches).toEqual([]);
    expect(jobRecord<Charged>(j).state).toBe("INTENT");
  });

  it("a run that dies mid-turn: the next run charges what the lost turn paid once and replays it", async () => {
    const kill = new AbortController();
    const model = counting(async (n) => {
      if (n !== 3) return;
      // Time for the journal's push of the first two responses, then the process dies.
      await new Promise((r) => setTimeout(r, 300));
      kill.abort(new Error("killed"));
      throw new Error("killed");
    });
    const job = await newJob({
      recording: script(),
      model: model.wrap,
      routes: FIRST_WAKE_ROUTES,
    });
    expect(await job.runWorker(1, kill.signal)).toBe(1);
    // Nothing of the turn is on the job branch; its two answered calls are on the journal's.
    expect(jobRecord<Charged>(job).engine.calls ?? 0).toBe(0);
    expect(
      git(job.github.bare, "ls-tree", "--name-only", "cfa-journal/1").split("\n"),
    ).toHaveLength(2);

    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    // The model was asked the third call again (the first answer was lost with the run) and
    // nothing more; the record charges the two journalled calls once, and the new one.
    expect(model.calls()).toBe(4);
    expect(jobRecord<Charged>(job).engine.calls).toBe(3);
  });
});
