// Pause and resume (stop a job for a while without withdrawing it): `/pause [reason]` stops a
// running wake at its turns' next model call — the turn in flight is kept, not applied, and redone
// on `/resume` with its paid calls answered from the response journal (charged once); while paused
// nothing runs, what people say is recorded and acts on resume, and `/withdraw` still ends the job.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { readJobRecords } from "../../src/cli/job-records.js";
import { readJobView } from "../../src/cli/job-view.js";
import { renderWatch } from "../../src/cli/watch-render.js";
import { renderInspect } from "../../src/cli/inspect-render.js";
import { priceOf, resolveModel } from "../../src/wiring/index.js";
import type { Model } from "../../src/ports/model.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { type LocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { ANA, approve, openJob, say as comment } from "../support/engine/person.js";
import {
  botComments,
  commentsOfKind,
  fileOnBranch,
  foldedBus,
  state,
} from "../support/engine/inspect.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import {
  INTENT_STEPS,
  PLAN_STEPS,
  gate,
  pass,
  writeArtifact,
  busyWorker,
  dispatchX,
  summedUp,
} from "../support/engine/recordings.js";

const LEAD = "intent-lead@state:intent:1";
const EXEC = "project-lead@state:execute:1";
const WORKER = "worker@dispatch:x";
const CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
const approveGate = () => [tools(call("answer", { text: "approved" }))];

function wholeJob() {
  return createConversationModel(
    recording({
      [LEAD]: INTENT_STEPS(),
      "proxy@escalation:q1": approveGate(),
      "project-lead@state:plan:1": PLAN_STEPS(),
      "proxy@escalation:q2": approveGate(),
      [EXEC]: [
        dispatchX(),
        say("Dispatched."),
        tools(call("close", { task: "x" })),
        ...summedUp("x is done.", "WORK_SUMMARY.md is ready"),
      ],
      [WORKER]: busyWorker(),
      "verifier@verify:x-1": pass(),
      "proxy@escalation:q3": approveGate(),
    }),
  );
}

const engineOf = (j: LocalJob) =>
  state(j).engine as { calls?: number; paused?: { by: string; since: string; reason: string } };
const busTypes = (j: LocalJob) =>
  foldedBus(j)
    .text.split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { type: string }).type);

describe("pause and resume", () => {
  const newJob = useLocalJobs();

  it("/pause while a worker's turn is in flight: the turn stops at its next call, nothing of it applied; /resume redoes it from the journal, every call charged once", async () => {
    const inner = wholeJob();
    let answered = 0;
    let posted = false;
    const model: Model = {
      async complete(request, options) {
        answered += 1;
        const response = await inner.complete(request, options);
        // The person pauses while the worker's second call is in flight.
        if (request.instance === WORKER && !posted && ++seenWorker === 2) {
          posted = true;
          await job.forge.commentAs(ANA, 1, "/pause back on Monday");
        }
        return response;
      },
    };
    let seenWorker = 0;
    const job = await newJob({ model, config: CONFIG });
    await openJob(job);
    const paused = await wake(1, job.deps);
    expect(paused.state).toBe("EXECUTE");
    expect(paused.waitingOn).toContain("PAUSED by @ana");
    expect(paused.waitingOn).toContain("back on Monday");
    expect(paused.stopped).toBeUndefined(); // no next run: a paused job waits for a person
    // The worker's third call was never asked: the turn stopped at its boundary.
    expect(inner.requests.filter((r) => r.instance === WORKER)).toHaveLength(2);
    expect(engineOf(job).paused).toMatchObject({ by: "ana", reason: "back on Monday" });
    // Every answered call is charged, once, and nothing of the worker's turn was applied.
    expect(engineOf(job).calls).toBe(answered);
    expect(
      fileOnBranch(job, `.cfa/jobs/1/instances/${WORKER.replace(/:/g, "~")}.jsonl`),
    ).toBeNull();
    expect(fileOnBranch(job, "a.txt")).toBeNull();
    expect(busTypes(job)).toContain("paused");
    const status = (await botComments(job)).find((c) => c.block.kind === "status");
    expect(status?.body).toContain("**PAUSED**");
    expect(status?.body).toContain("back on Monday");

    const pausedView = readJobView((await readJobRecords(job.repoDir, 1))!);
    expect(renderInspect(pausedView, { resolveModel, price: priceOf, timeZone: "UTC" })).toContain(
      `⏸ PAUSED by @ana since ${engineOf(job).paused!.since.slice(11, 19)}: back on Monday (\`cfa resume 1\` releases it)`,
    );

    // A wake while paused runs nothing at all.
    const before = answered;
    const again = await wake(1, job.deps);
    expect(again.waitingOn).toContain("PAUSED");
    expect(answered).toBe(before);

    await comment(job, "/resume");
    const done = await wake(1, job.deps);
    expect(done.state).toBe("DONE");
    expect(inner.unplayed()).toEqual({});
    // The worker's two answered calls were replayed, not asked again: the model answered
    // each request of the recording once, and the record charged each once.
    expect(answered).toBe(inner.requests.length);
    expect(engineOf(job).calls).toBe(answered);
    expect(engineOf(job).paused).toBeUndefined();
    expect(job.lines.map((l) => l.detail).join("\n")).toMatch(
      /2 model calls replayed from the journal/,
    );
    const types = busTypes(job);
    expect(types.indexOf("resumed")).toBeGreaterThan(types.indexOf("paused"));
    // cfa watch tells it from the bus; cfa inspect no longer heads the job PAUSED.
    const view = readJobView((await readJobRecords(job.repoDir, 1))!);
    const story = renderWatch(view).map((l) => `${l.who} ${l.event} ${l.detail}`);
    expect(story).toContain("HUMAN PAUSED @ana: back on Monday");
    expect(story).toContain("HUMAN RESUMED @ana");
    const inspected = renderInspect(view, { resolveModel, price: priceOf }).join("\n");
    expect(inspected).not.toContain("PAUSED");
    expect(await commentsOfKind(job, "refusal")).toEqual([]);
  });

  it("paused at a gate: a review while paused is recorded and takes effect on resume; a second /pause is refused", async () => {
    const inner = createConversationModel(
      recording({
        [LEAD]: INTENT_STEPS(),
        "project-lead@state:plan:1": [writeArtifact("PLAN.md", "# Plan\n"), gate("PLAN.md")],
      }),
    );
    const job = await newJob({ model: inner });
    await openJob(job);
    expect((await wake(1, job.deps)).waitingOn).toContain("review INTENT.md");
    await comment(job, "/pause");
    const paused = await wake(1, job.deps);
    expect(paused.waitingOn).toContain("PAUSED by @ana");
    expect(paused.waitingOn).toContain("paused by request");

    await approve(job);
    await comment(job, "/pause again");
    const asked = inner.requests.length;
    const still = await wake(1, job.deps);
    expect(still.state).toBe("INTENT");
    expect(still.waitingOn).toContain("PAUSED");
    expect(inner.requests.length).toBe(asked); // the lead did not run on the approval
    // The approval is recorded (its reply waits in the lead's mailbox), the cursor moved on.
    expect(foldedBus(job).text).toContain("approved by @ana");
    const refusals = await commentsOfKind(job, "refusal");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain("paused already");

    await comment(job, "/resume");
    const moved = await wake(1, job.deps);
    expect(moved.state).toBe("PLAN");
    expect(moved.waitingOn).toContain("review PLAN.md");
  });

  it("/withdraw while paused ends the job WITHDRAWN; /resume on a job that is not paused is refused with one reply", async () => {
    const inner = createConversationModel(recording({ [LEAD]: INTENT_STEPS().slice(0, 2) }));
    const job = await newJob({ model: inner });
    await openJob(job);
    await comment(job, "/resume");
    expect((await wake(1, job.deps)).waitingOn).toContain("review INTENT.md");
    const refusals = await commentsOfKind(job, "refusal");
    expect(refusals.map((r) => r.body).join("\n")).toContain("is not paused");
    expect(refusals).toHaveLength(1);

    await comment(job, "/pause");
    await wake(1, job.deps);
    await comment(job, "/withdraw not needed after all");
    const withdrawn = await wake(1, job.deps);
    expect(withdrawn.state).toBe("WITHDRAWN");
    expect(busTypes(job)).toContain("paused");
  });

  it("an outsider's /pause is refused with one reply and changes nothing", async () => {
    const inner = createConversationModel(recording({ [LEAD]: INTENT_STEPS().slice(0, 2) }));
    const job = await newJob({ model: inner });
    await openJob(job);
    await comment(job, "/pause", { by: { login: "mallory", type: "User" } });
    const summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    expect(engineOf(job).paused).toBeUndefined();
    const refusals = await commentsOfKind(job, "refusal");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain("only people with write access can use `/pause`");
  });
});
