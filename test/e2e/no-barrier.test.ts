// No round barrier (docs/protocol.md#message-soup: different (A, t) instances run in parallel
// without synchronisation). One worker's model call resolves only when the test lets it; its
// sibling replies at once. The lead's next turn must start — its first request reach the model —
// while the slow worker's turn is still running. With a round barrier the lead would wait for the
// slow turn (the test then releases it after a while and the assertion fails): the control shows
// it, applying turns in the order they started (what a replay does), which holds the fast reply
// behind the slow turn started before it.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { Model } from "../../src/ports/model.js";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { openJob } from "../support/engine/person.js";
import { fileOnBranch, state } from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import {
  approveGate,
  INTENT_STEPS,
  PLAN_STEPS,
  pass,
  summedUp,
} from "../support/engine/recordings.js";

const CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
const dispatch = (id: string) => call("dispatch", { id, brief: `Write ${id}.txt`, files: [] });
const LEAD = "project-lead@state:execute:1";
// Named so the slow task sorts (and so starts) first: name order must not decide.
const SLOW = "worker@dispatch:a-slow";
const FAST = "worker@dispatch:b-fast";

describe("no round barrier", () => {
  const newJob = useLocalJobs();

  async function runJob(applyOrder: "finished" | "started") {
    const inner = createStrictConversationModel(
      recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "proxy@escalation:q1": approveGate(),
        "project-lead@state:plan:1": PLAN_STEPS(),
        "proxy@escalation:q2": approveGate(),
        "proxy@escalation:q3": approveGate(),
        [LEAD]: [
          tools(dispatch("a-slow"), dispatch("b-fast")),
          say("Waiting for both."),
          expecting(tools(call("close", { task: "b-fast" })), "fast done"),
          say("Waiting for slow."),
          expecting(tools(call("close", { task: "a-slow" })), "slow done"),
          ...summedUp("slow and fast."),
        ],
        [FAST]: [
          tools(call("write_file", { path: "fast.txt", content: "quick\n" })),
          tools(call("reply", { text: "fast done" })),
          say("done"),
        ],
        [SLOW]: [
          tools(call("write_file", { path: "slow.txt", content: "late\n" })),
          tools(call("reply", { text: "slow done" })),
          say("done"),
        ],
        "verifier@verify:b-fast-1": pass(),
        "verifier@verify:a-slow-1": pass(),
      }),
    );
    // The slow worker's first call waits for `release`; the lead hearing "fast done" releases
    // it (and notes that it came first). A barrier would never let the lead hear it first:
    // then a timer, started when the fast worker's turn ends, releases the slow call so the
    // test ends, failing (generous: the machine may be loaded).
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let slowEnded = false;
    let leadHeardFastWhileSlowRan: boolean | null = null;
    let timer: NodeJS.Timeout | undefined;
    const model: Model = {
      async complete(request, options) {
        if (request.instance === FAST) {
          const response = await inner.complete(request, options);
          if (JSON.stringify(response.content).includes('"done"')) {
            timer = setTimeout(() => release(), 8_000);
          }
          return response;
        }
        if (request.instance === SLOW) {
          await released;
          const response = await inner.complete(request, options);
          if (JSON.stringify(response.content).includes('"done"')) slowEnded = true;
          return response;
        }
        if (
          request.instance === LEAD &&
          leadHeardFastWhileSlowRan === null &&
          JSON.stringify(request.messages).includes("fast done")
        ) {
          leadHeardFastWhileSlowRan = !slowEnded;
          release();
        }
        return inner.complete(request, options);
      },
    };
    const job = await newJob({ config: CONFIG, model, applyOrder });
    await openJob(job);
    const summary = await wake(1, { ...job.deps, applyOrder });
    clearTimeout(timer);
    return { job, inner, summary, leadHeardFastWhileSlowRan };
  }

  it("a worker's early reply starts its lead's next turn while a sibling's turn still runs", async () => {
    const { job, inner, summary, leadHeardFastWhileSlowRan } = await runJob("finished");
    expect(inner.errors).toEqual([]);
    expect(summary.state).toBe("DONE");
    expect(leadHeardFastWhileSlowRan).toBe(true);
    // And the slow worker's turn was not lost or redone: its work is merged once.
    expect(fileOnBranch(job, "slow.txt")).toBe("late");
    expect(fileOnBranch(job, "fast.txt")).toBe("quick");
    const tasks = state(job).engine.tasks as Record<string, { status: string }>;
    expect(tasks["b-fast"]!.status).toBe("merged");
    expect(tasks["a-slow"]!.status).toBe("merged");
    expect(inner.unplayed()).toEqual({});
  });

  it("control: applied in start order (head-of-line blocking), the lead hears the fast reply only after the slow turn", async () => {
    const { summary, leadHeardFastWhileSlowRan } = await runJob("started");
    expect(summary.state).toBe("DONE");
    expect(leadHeardFastWhileSlowRan).toBe(false);
  });
});
