// An API outage is waited out, not failed (the outside world is unreliable, not wrong): when the
// adapter gives up (ModelUnavailableError) the wake ends with the job live, its turn unapplied (its
// message still in the mailbox), no retry budget spent, the status comment saying since when it
// waits; the next wake — on a new runner — redoes the turn and pays for none of the calls already
// made (their usage was persisted per response).

import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { ModelUnavailableError, type Model } from "../../src/ports/model.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import { commentsOfKind, foldedBus, state } from "../support/engine/inspect.js";
import {
  gate,
  pass,
  worker,
  writeArtifact,
  approveGate,
  proxiedToExecute,
  summedUp,
} from "../support/engine/recordings.js";
import { call, recording, say, tools } from "../support/engine/script.js";

const LEAD = "intent-lead@state:intent:1";

/** The scripted model, unavailable (as the adapter reports it after its patience) while `down()`. */
function outage(inner: Model, down: (instance: string, index: number) => boolean) {
  let thrown = 0;
  const model: Model = {
    async complete(request, options) {
      const index = request.messages.filter((m) => m.role === "assistant").length;
      if (down(request.instance, index)) {
        thrown += 1;
        throw new ModelUnavailableError("cfa/anthropic: the API stayed unavailable", {
          since: "2026-11-22T09:58:00.000Z",
          attempts: 9,
          last: "529 overloaded_error",
        });
      }
      return inner.complete(request, options);
    },
  };
  return { model, thrown: () => thrown };
}

describe("an API outage is waited out", () => {
  const newJob = useLocalJobs();

  it("the wake ends live, the turn unapplied and no budget spent; a new runner redoes it without paying again", async () => {
    const script = createConversationModel(
      recording({
        [LEAD]: [
          tools(call("list_files", {})),
          writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
          gate("INTENT.md"),
        ],
      }),
    );
    let apiDown = true;
    // Down at the lead's third call of its first turn: two calls are paid before it.
    const flaky = outage(script, (who, index) => apiDown && who === LEAD && index === 2);
    const job = await newJob({ model: flaky.model });
    await openJob(job);

    const first = await wake(1, job.deps);
    expect(flaky.thrown()).toBe(1);
    expect(first.state).toBe("INTENT");
    expect(first.waitingOn).toContain(
      "waiting for the Anthropic API since 2026-11-22T09:58:00.000Z",
    );
    const waiting = state(job);
    expect(waiting.state).toBe("INTENT");
    expect(waiting.failures).toBe(0);
    expect(waiting.turns).toBe(0);
    const engine = waiting.engine as {
      apiWait?: { since: string };
      journal?: string[];
      calls?: number;
    };
    expect(engine.apiWait?.since).toBe("2026-11-22T09:58:00.000Z");
    // The two paid calls: accounted once, and carried for the next runner.
    expect(engine.calls).toBe(2);
    expect(engine.journal).toHaveLength(2);
    // Every scripted response carries the same usage (support/engine/script.ts).
    const paid = job.deps.price(job.deps.resolveModel("capable"), STEP_USAGE);
    expect(paid).toBeGreaterThan(0);
    expect(waiting.costUsd).toBeCloseTo(2 * paid, 10);
    // The turn never happened: the lead's message waits in its mailbox, nothing of it is
    // committed, and the person is told why the job waits.
    const soup = foldedBus(job).folded.soup;
    expect(soup.mailbox({ agent: "intent-lead", thread: "state:intent:1" })).toHaveLength(1);
    expect(soup.pendingEscalations()).toEqual([]);
    const [status] = await commentsOfKind(job, "status");
    expect(status!.body).toContain("waiting for the Anthropic API since 2026-11-22T09:58:00.000Z");

    // A new runner: nothing of this one's area survives, only the branch.
    await rm(join(job.workRoot, "1"), { recursive: true, force: true });
    apiDown = false;
    const before = script.requests.length;
    const second = await wake(1, await job.reopen());
    expect(second.waitingOn).toContain("review INTENT.md");
    // The redone turn asked the model only what was never answered: the third call.
    const asked = script.requests.slice(before).map((r) => `${r.instance} ${r.step}`);
    expect(asked).toEqual([`${LEAD} 2`]);
    const done = state(job);
    expect(done.failures).toBe(0);
    expect(done.turns).toBe(1);
    const after = done.engine as { apiWait?: unknown; journal?: unknown; calls?: number };
    expect(after.apiWait).toBeUndefined();
    expect(after.journal).toBeUndefined();
    expect(after.calls).toBe(3);
    expect(done.costUsd).toBeCloseTo(3 * paid, 10);
  });

  it("a verifier that meets the outage inside the lead's close: the lead's turn is redone on the next runner, its calls replayed, and the job ends DONE", async () => {
    const EXEC = "project-lead@state:execute:1";
    const script = createConversationModel(
      recording({
        ...proxiedToExecute(),
        [EXEC]: [
          tools(call("dispatch", { id: "hello", brief: "Create hello.txt", files: [] })),
          say("Dispatched."),
          tools(call("close", { task: "hello" })),
          ...summedUp("hello.txt exists.", "WORK_SUMMARY.md is ready"),
        ],
        "worker@dispatch:hello": worker("hello.txt"),
        "verifier@verify:hello-1": pass(),
        "proxy@escalation:q3": approveGate(),
      }),
    );
    let apiDown = true;
    const flaky = outage(script, (who) => apiDown && who === "verifier@verify:hello-1");
    const job = await newJob({
      model: flaky.model,
      config: "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n",
    });
    await openJob(job);
    const first = await wake(1, job.deps);
    expect(first.state).toBe("EXECUTE");
    expect(first.waitingOn).toContain("waiting for the Anthropic API since");
    expect(state(job).failures).toBe(0);
    // The close never happened: the task is open, not failed by its verifier.
    const tasks = (
      state(job).engine as { tasks: Record<string, { status: string; verifyFailures: number }> }
    ).tasks;
    expect(tasks["hello"]).toMatchObject({ status: "open", verifyFailures: 0 });

    await rm(join(job.workRoot, "1"), { recursive: true, force: true });
    apiDown = false;
    const second = await wake(1, await job.reopen());
    expect(second.state).toBe("DONE");
    // The lead's call that closed the task was paid once: the redone turn replayed it.
    const closes = script.requests.filter((r) => r.instance === EXEC && r.step === 2);
    expect(closes).toHaveLength(1);
    expect(state(job).failures).toBe(0);
  });
});

const STEP_USAGE = {
  inputTokens: 1200,
  outputTokens: 150,
  cacheReadTokens: 800,
  cacheWriteTokens: 300,
};
