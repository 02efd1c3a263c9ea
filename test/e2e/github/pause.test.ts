// `/pause` and `/resume` on GitHub, over the fake GitHub and a bare repository as its git side,
// each run on a fresh runner:
// - posted while the lead's turn runs: the running wake sees it at a model-call boundary (a
//   conditional GET of the issue, poll-interventions.ts), the turn stops at its next call,
//   the run pushes the records and ends without dispatching another; a run while paused
//   asks the model nothing; after `/resume` the next run redoes the turn, its paid calls
//   replayed from the journal's branch, each charged once;
// - an outsider's `/pause`: the app refuses it with one reply and starts no run.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_COMMAND_POLL_MS } from "../../../src/engine/people/poll-interventions.js";
import type { Model } from "../../../src/ports/model.js";
import { recording } from "../../support/engine/script.js";
import {
  ART,
  finish,
  gate,
  slowIntentTurn,
  writeArtifact,
} from "../../support/engine/recordings.js";
import { examplePayload, useGitHubMocks } from "../../support/github/index.js";
import { OWNER, REPO } from "../../support/github/fake-github.js";
import { FIRST_WAKE_ROUTES, git, jobRecord, routesWith } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const LEAD = "intent-lead@state:intent:1";

/** The intent lead's one turn: four model calls, then its gate. */
const script = () => recording({ [LEAD]: slowIntentTurn(2) });

interface Record {
  state: string;
  turns: number;
  engine: { calls?: number; paused?: { by: string; reason: string } };
}

describe("/pause and /resume on GitHub", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();
  // Only performance.now is faked: the wake's monotonic clock, which a call advances.
  beforeEach(() => vi.useFakeTimers({ toFake: ["performance"] }));
  afterEach(() => vi.useRealTimers());

  it("posted while the lead's turn runs: the turn stops at its next call, the run ends with no next run; /resume's run redoes it from the journal, each call charged once", async () => {
    let answered = 0;
    const job = await newJob({
      recording: script(),
      model: (scripted): Model => ({
        async complete(request, options) {
          answered += 1;
          vi.advanceTimersByTime(DEFAULT_COMMAND_POLL_MS);
          const response = await scripted.complete(request, options);
          // The person pauses while the lead's second call is in flight.
          if (answered === 2) job.github.comment(1, "ana", "/pause waiting on legal");
          return response;
        },
      }),
      routes: routesWith(FIRST_WAKE_ROUTES, { plus: ["update-comment"] }),
    });
    const { github } = job;

    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(answered).toBe(2);
    const paused = jobRecord<Record>(job);
    expect(paused.state).toBe("INTENT");
    expect(paused.turns).toBe(0);
    expect(paused.engine.calls).toBe(2);
    expect(paused.engine.paused).toMatchObject({ by: "ana", reason: "waiting on legal" });
    expect(github.dispatches).toEqual([]);
    const status = github.botComments(1).find((c) => c.body.includes('"kind":"status"'));
    expect(status?.body).toContain("**PAUSED**");
    expect(status?.body).toContain("waiting on legal");
    // The journal's branch holds the two paid responses.
    expect(git(github.bare, "ls-tree", "--name-only", "cfa-journal/1").split("\n")).toHaveLength(2);

    // The run the /pause comment cued (it waited in the job's concurrency group): nothing runs.
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(answered).toBe(2);

    github.comment(1, "ana", "/resume");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    // The two paid calls replayed, the other two asked: four answers, four charges.
    expect(answered).toBe(4);
    const resumed = jobRecord<Record>(job);
    expect(resumed.engine.calls).toBe(4);
    expect(resumed.engine.paused).toBeUndefined();
    expect(resumed.turns).toBe(1);
    expect(git(github.bare, "show", `cfa/1:${ART}/INTENT.md`)).toContain("Greet.");
    expect(job.lines.join("\n")).toMatch(/2 model calls replayed from the journal/);
    expect(github.dispatches).toEqual([]);
  });

  it("paused at a gate: the check says PAUSED, an approval while paused is recorded and acts on /resume; /withdraw while paused ends the job", async () => {
    const job = await newJob({
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n"),
          gate("INTENT.md", "Intent?"),
          finish("APPROVED_INTENT", "approved"),
        ],
        "project-lead@state:plan:1": [
          writeArtifact("PLAN.md", "# Plan\n"),
          gate("PLAN.md", "Plan?"),
        ],
      }),
      routes: routesWith(FIRST_WAKE_ROUTES, { plus: ["update-comment", "update-pull"] }),
    });
    const { github } = job;
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);

    github.comment(1, "ana", "/pause until Monday");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(jobRecord<Record>(job).engine.paused).toMatchObject({
      by: "ana",
      reason: "until Monday",
    });
    const intent = github.checks.filter((c) => c.name === "cfa/intent").at(-1);
    // The outbound filter keeps the login from pinging anyone (a word joiner after the @).
    expect(intent?.title).toBe("cfa/intent: PAUSED by @\u2060ana");

    const pull = github.pulls[0]!;
    github.review({
      pull: pull.number,
      login: "ana",
      state: "APPROVED",
      commitId: github.head("cfa/1"),
    });
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    // Recorded (the lead's reply waits), but nothing moved while paused.
    expect(jobRecord<Record>(job).state).toBe("INTENT");
    expect(git(github.bare, "show", `cfa/1:${ART}/bus.jsonl`)).toContain("approved by @ana");

    github.comment(1, "ana", "/resume");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(jobRecord<Record>(job).state).toBe("PLAN");
    expect(jobRecord<Record>(job).engine.paused).toBeUndefined();

    github.comment(1, "ana", "/pause");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    github.comment(1, "ana", "/withdraw not needed");
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(jobRecord<Record>(job).state).toBe("WITHDRAWN");
  });

  it("an outsider's /pause is refused by the app with one reply, and no run starts", async () => {
    const job = await newJob({ recording: recording({}) });
    const { github, probot } = job;
    github.install(["permission", "content", "org-content", "list-comments", "create-comment"]);
    github.permissions.set("mallory", "read");
    github.openIssue({ number: 1, title: "Greet", body: "x", author: "ana", label: "cfa" });
    const comment = github.comment(1, "mallory", "/pause forever");
    const payload = examplePayload("issue_comment", "created", {
      repository: { name: REPO, owner: { login: OWNER }, default_branch: "main" },
      issue: { number: 1, labels: [{ name: "cfa" }], state: "open" },
      comment: { id: comment.id, body: comment.body, user: { login: "mallory", type: "User" } },
      sender: { login: "mallory", type: "User" },
    });
    await probot.receive("issue_comment", payload);
    expect(github.dispatches).toEqual([]);
    const replies = github.botComments(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain("`/pause`");
  });
});
