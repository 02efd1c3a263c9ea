// `/intervene` on GitHub while the worker runs (one turn can run for many minutes): the running
// wake looks at the issue at its model-call boundaries (poll-interventions.ts) with a conditional
// GET, free when GitHub answers 304, and the lead's next request carries the person's words. The
// whole path is real: Octokit over HTTP to the fake GitHub (ETags and 304s as GitHub sends them),
// the worker as Actions runs it, the engine, git. Each model call takes ten seconds of the wake's
// monotonic clock (the poll interval's default), so every boundary may look. An idle lead (waiting
// at its gate, no worker running) is reached through the app: the comment cues a run, and that
// run's lead is woken on the intervention ([wake-int]).

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_COMMAND_POLL_MS } from "../../../src/engine/people/poll-interventions.js";
import type { Model } from "../../../src/ports/model.js";
import { recording } from "../../support/engine/script.js";
import { gate, slowIntentTurn, writeArtifact } from "../../support/engine/recordings.js";
import { examplePayload, useGitHubMocks } from "../../support/github/index.js";
import { OWNER, REPO } from "../../support/github/fake-github.js";
import {
  FIRST_WAKE_ROUTES,
  git,
  routesWith,
  WHOLE_JOB_ROUTES,
} from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const ART = ".cfa/jobs/1";
const LEAD = "intent-lead@state:intent:1";
const TEXT = "Greet in French too.";
/** The lead's calls before the person comments (after the last of them returns). */
const BEFORE = 3;

const leadRecording = () => recording({ [LEAD]: slowIntentTurn(BEFORE + 1) });

describe("/intervene on GitHub reaches the current lead at its next model call", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();
  // Only performance.now is faked: the wake's monotonic clock, which a call advances.
  beforeEach(() => vi.useFakeTimers({ toFake: ["performance"] }));
  afterEach(() => vi.useRealTimers());

  it("posted during the lead's turn: polls before it cost nothing (304), the next request carries it, same turn", async () => {
    const requests: { instance: string; carries: boolean }[] = [];
    let posted = -1;
    let issueReadsAtPost = 0;
    const job = await newJob({
      routes: FIRST_WAKE_ROUTES,
      recording: leadRecording(),
      config: "escalation:\n  INTENT: always\n",
      model: (scripted): Model => ({
        async complete(request, options) {
          requests.push({
            instance: request.instance,
            carries: JSON.stringify(request.messages).includes(TEXT),
          });
          vi.advanceTimersByTime(DEFAULT_COMMAND_POLL_MS);
          const response = await scripted.complete(request, options);
          const leadCalls = requests.filter((r) => r.instance === LEAD).length;
          if (request.instance === LEAD && leadCalls === BEFORE && posted < 0) {
            // The person comments while the lead's third call is in flight.
            posted = requests.length - 1;
            issueReadsAtPost = job.github.answered.filter((a) => a.route === "issue").length;
            job.github.comment(1, "ana", `/intervene ${TEXT}`);
          }
          return response;
        },
      }),
    });
    const { github } = job;

    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);

    // Latency: the first request after the comment carries it, and it is the lead's.
    expect(posted).toBeGreaterThanOrEqual(0);
    const first = requests.findIndex((r) => r.carries);
    expect(first - posted).toBe(1);
    expect(requests[first]?.instance).toBe(LEAD);
    expect(requests.slice(0, first).some((r) => r.carries)).toBe(false);

    // The looks before the comment: the first reads the issue (200, its ETag), the next
    // ones are 304s, free against the rate limit; the comment makes the next one a 200.
    const issueReads = github.answered.filter((a) => a.route === "issue").map((a) => a.status);
    const before = issueReads.slice(0, issueReadsAtPost);
    expect(before.length).toBeGreaterThanOrEqual(BEFORE);
    expect(before).toEqual([200, ...Array(before.length - 1).fill(304)]);
    expect(issueReads[issueReadsAtPost]).toBe(200);

    // One turn: the person's words follow the third call's tool result in the lead's
    // transcript, as committed and pushed.
    const transcript = git(
      github.bare,
      "show",
      `cfa/1:${ART}/instances/${LEAD.replace(/:/g, "~")}.jsonl`,
    )
      .split("\n")
      .map((l) => JSON.parse(l) as { turn: number; type: string; message?: { role: string } });
    expect(Math.max(...transcript.map((l) => l.turn))).toBe(1);
    const seen = transcript.filter((l) => l.type === "message" && JSON.stringify(l).includes(TEXT));
    expect(seen[0]).toMatchObject({ turn: 1, message: { role: "user" } });
    expect(job.lines.join("\n")).toMatch(/HUMAN INTERVENE @ana → .* \(at its next model call\)/);
  });

  it("[wake-int] an idle lead waiting at its gate: the app dispatches a run, whose lead's first request carries it", async () => {
    const requests: { instance: string; carries: boolean }[] = [];
    const job = await newJob({
      routes: routesWith(WHOLE_JOB_ROUTES, {
        minus: ["issue-reaction", "update-pull"],
        plus: ["comment-reaction"],
      }),
      recording: recording({
        [LEAD]: [
          writeArtifact("INTENT.md", "# Intent\n"),
          gate("INTENT.md", "Intent?"),
          writeArtifact("INTENT.md", "# Intent\n\nFrench too.\n"),
          gate("INTENT.md", "Again?"),
        ],
      }),
      model: (scripted): Model => ({
        complete(request, options) {
          requests.push({
            instance: request.instance,
            carries: JSON.stringify(request.messages).includes(TEXT),
          });
          return scripted.complete(request, options);
        },
      }),
    });
    const { github, probot } = job;
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(requests.map((r) => r.carries)).toEqual([false, false]);

    // The person intervenes on GitHub; the app cues a run for the job.
    const comment = github.comment(1, "ana", `/intervene ${TEXT}`);
    const dispatched = github.dispatches.length;
    await probot.receive(
      "issue_comment",
      examplePayload("issue_comment", "created", {
        repository: { name: REPO, owner: { login: OWNER }, default_branch: "main" },
        issue: { number: 1, labels: [{ name: "cfa" }], state: "open" },
        comment: { id: comment.id, body: comment.body, user: { login: "ana", type: "User" } },
        sender: { login: "ana", type: "User" },
      }),
    );
    expect(github.dispatches.slice(dispatched)).toEqual([
      { workflow: "cfa.yml", ref: "main", job: "1" },
    ]);

    // That run wakes the lead on it ([wake-int]): its first request carries the words.
    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    expect(requests.slice(2).map((r) => [r.instance, r.carries])).toEqual([
      [LEAD, true],
      [LEAD, true],
    ]);
    expect(git(github.bare, "show", `cfa/1:${ART}/INTENT.md`)).toContain("French");
  });
});
