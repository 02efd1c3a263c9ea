// The model-call boundary through the real engine (limits hold at every call, not once a turn): the
// turn's wall-clock limit, the cost cap before every call with turns running in parallel, and a
// failed turn's recovery as a Send into its mailbox.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { Model, ModelUsage } from "../../src/ports/model.js";
import { createConversationModel } from "../support/engine/conversation-model.js";
import { createLocalJob } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import { foldedBus, state, transcript, userTexts } from "../support/engine/inspect.js";
import {
  INTENT_STEPS,
  gate,
  writeArtifact,
  approveGate,
  proxiedToExecute,
} from "../support/engine/recordings.js";
import { call, recording, say, tools } from "../support/engine/script.js";

const LEAD = "intent-lead@state:intent:1";
const USAGE: ModelUsage = {
  inputTokens: 1200,
  outputTokens: 150,
  cacheReadTokens: 800,
  cacheWriteTokens: 300,
};

describe("the turn's wall-clock limit", () => {
  const newJob = useLocalJobs();

  it("checked before every call: past limits.turnTimeoutSeconds the turn stops, a state-level failure naming the limit; its work is kept", async () => {
    let now = 0;
    const script = createConversationModel(
      recording({
        [LEAD]: [
          tools(call("list_files", {})),
          tools(call("list_files", { path: "." })),
          writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
          gate("INTENT.md"),
        ],
      }),
    );
    // Each call takes 40 s of the turn's clock; the limit is 60 s: the third call is never made.
    const model: Model = {
      async complete(request, options) {
        now += 40_000;
        return script.complete(request, options);
      },
    };
    const job = await newJob({ model, config: "limits:\n  turnTimeoutSeconds: 60\n" });
    await openJob(job);
    const summary = await wake(1, { ...job.deps, monotonic: () => now });
    expect(summary.waitingOn).toContain("review INTENT.md");

    // One state-level failure, then a successful turn (which restarts the consecutive count).
    expect(state(job).failures).toBe(0);
    const texts = userTexts(transcript(job, LEAD));
    const cut = texts.find((t) => t.includes("Your last turn was cut short"));
    expect(cut).toMatch(
      /turn timeout: intent-lead@state:intent:1 ran 80 s, over limits\.turnTimeoutSeconds \(60 s\)/,
    );
    expect(cut).toContain("State-level failure 1 of 3");
    // The first turn's two calls stay in the conversation: the second turn went on from them.
    expect(script.requests.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(script.unplayed()).toEqual({});
  });

  it("a call still in flight at the deadline is cut: the same failure, and the job goes on", async () => {
    const script = createConversationModel(
      recording({ [LEAD]: [writeArtifact("INTENT.md", "# Intent\n"), gate("INTENT.md")] }),
    );
    let hung = false;
    const model: Model = {
      complete(request, options) {
        if (!hung) {
          hung = true;
          // The first call never answers: only the turn's deadline ends it.
          return new Promise((_, reject) => {
            options?.signal?.addEventListener("abort", () => reject(options.signal!.reason));
          });
        }
        return script.complete(request, options);
      },
    };
    const job = await newJob({ model, config: "limits:\n  turnTimeoutSeconds: 1\n" });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");
    const texts = userTexts(transcript(job, LEAD));
    expect(
      texts.some((t) =>
        /Your last turn was cut short: turn timeout: .*\(1 s\)[^]*State-level failure 1 of 3/.test(
          t,
        ),
      ),
    ).toBe(true);
  });
});

describe("caps before every model call", () => {
  const newJob = useLocalJobs();

  it("three workers running in parallel overshoot the cost cap by less than one call", async () => {
    const tasks = ["a", "b", "c"];
    const busy = (id: string) => [
      tools(call("write_file", { path: `${id}1.txt`, content: "1\n" })),
      tools(call("write_file", { path: `${id}2.txt`, content: "2\n" })),
      tools(call("write_file", { path: `${id}3.txt`, content: "3\n" })),
      tools(call("reply", { text: `${id} done` })),
    ];
    const script = createConversationModel(
      recording({
        ...proxiedToExecute(),
        "project-lead@state:execute:1": [
          tools(...tasks.map((id) => call("dispatch", { id, brief: `files ${id}`, files: [] }))),
          say("Dispatched."),
        ],
        ...Object.fromEntries(tasks.map((id) => [`worker@dispatch:${id}`, busy(id)])),
      }),
    );
    // Every call costs the same; ten calls reach EXECUTE's round of workers.
    const probe = await createLocalJob({ model: script });
    const price = probe.deps.price(probe.deps.resolveModel("capable"), USAGE);
    await probe.cleanup();
    expect(price).toBeGreaterThan(0);
    const cap = 10.2 * price;
    // Calls take time, as real ones do, so the workers' calls would overlap.
    const slow: Model = {
      async complete(request, options) {
        if (request.instance.startsWith("worker@")) await new Promise((r) => setTimeout(r, 40));
        return script.complete(request, options);
      },
    };
    const job = await newJob({
      model: slow,
      config: `escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\ncaps:\n  costUsd: ${cap}\n`,
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");
    const record = state(job);
    expect(record.history.at(-1)?.reason).toMatch(/^cap breached: costUsd /);
    expect(record.costUsd).toBeGreaterThan(cap);
    // Never more than one call over (without the gate the three first calls would all go).
    expect(record.costUsd - cap).toBeLessThan(price);
    expect(record.costUsd).toBeCloseTo(11 * price, 10);
  });
});

describe("caps after a proxy's call too", () => {
  const newJob = useLocalJobs();

  it("a proxy's call that breaches the cost cap fails the job before any other turn runs", async () => {
    const script = createConversationModel(
      recording({
        [LEAD]: INTENT_STEPS(),
        "proxy@escalation:q1": approveGate(),
      }),
    );
    const probe = await createLocalJob({ model: script });
    const price = probe.deps.price(probe.deps.resolveModel("capable"), USAGE);
    await probe.cleanup();
    // The lead's two calls fit; the proxy's third takes the spend over the cap.
    const job = await newJob({
      model: script,
      config: `escalation:\n  INTENT: never\ncaps:\n  costUsd: ${2.5 * price}\n`,
    });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.state).toBe("FAILURE");
    const record = state(job);
    expect(record.history.at(-1)).toMatchObject({ from: "INTENT", action: "FAILURE" });
    expect(record.history.at(-1)?.reason).toMatch(/^cap breached: costUsd /);
    expect(record.costUsd).toBeCloseTo(3 * price, 10);
    // The lead's finishing turn never ran.
    expect(script.unplayed()).toEqual({ [LEAD]: 1 });
  });
});

describe("recovery into the mailbox", () => {
  const newJob = useLocalJobs();

  it("a failed turn keeps the message it was on; the recovery is a Send behind it, never an Interrupt", async () => {
    const script = createConversationModel(
      recording({
        [LEAD]: [writeArtifact("INTENT.md", "# Intent\n"), gate("INTENT.md")],
      }),
    );
    let failed = false;
    const model: Model = {
      async complete(request, options) {
        if (!failed) {
          failed = true;
          throw new Error("400 invalid_request_error: something the API refused");
        }
        return script.complete(request, options);
      },
    };
    const job = await newJob({ model });
    await openJob(job);
    const summary = await wake(1, job.deps);
    expect(summary.waitingOn).toContain("review INTENT.md");

    // Turn 1 is kept: the lead's task is its opening message, and turn 2 opens on the
    // recovery — the task is still in the conversation the model is sent.
    const texts = userTexts(transcript(job, LEAD));
    expect(texts[0]).toContain("You lead the INTENT phase of job #1");
    expect(texts[1]).toContain("Your last turn was cut short: 400 invalid_request_error");
    expect(texts[1]).toContain("State-level failure 1 of 3");
    const firstRequest = JSON.stringify(script.requests[0]!.request.messages);
    expect(firstRequest).toContain("You lead the INTENT phase of job #1");
    expect(firstRequest).toContain("Your last turn was cut short");

    // On the bus: the orchestrator's Send into the lead's mailbox, no Interrupt.
    const events = foldedBus(job)
      .text.split("\n")
      .filter((l) => l.includes('"recovery"'))
      .map((l) => JSON.parse(l) as { type: string; from?: { agent: string } })
      .filter((e) => e.type === "deliver" || e.type === "interrupt");
    expect(events.map((e) => `${e.type} ${e.from?.agent ?? ""}`)).toEqual(["deliver cfa"]);
  });
});
