// Intervention latency: from the person's `/intervene` comment to the
// current lead's first model request that carries it, in model calls and in milliseconds.
// A real engine on the local forge and real git; the lead's model is scripted, each call
// taking a fixed time, and the comment lands at different points of a long turn. The engine
// looks for comments at every model-call boundary, at most every `commandPollMs`
// (poll-interventions.ts; on GitHub each look is a conditional GET, free when it answers 304).
//
// Two kinds of rows:
// - wall clock: calls really take CALL_MS; polls every 0 ms (the local forge's setting) and
//   every 1000 ms (the GitHub default, 10 s, scaled down so the bench stays short).
// - the GitHub default on the wake's own clock: the engine's monotonic clock (deps.monotonic)
//   advances by the call's duration as each call runs, so a 10 s poll against calls of 5 s
//   and of 20 s (real ones take 10–60 s) is measured without waiting for it. The engine's
//   own work between calls (the poll, the relay, git) is not on that clock.

import { performance } from "node:perf_hooks";
import { DEFAULT_COMMAND_POLL_MS } from "../src/engine/people/poll-interventions.js";
import { wake } from "../src/engine/index.js";
import type { Model } from "../src/ports/model.js";
import { createConversationModel } from "../test/support/engine/conversation-model.js";
import { createLocalJob, type LocalJob } from "../test/support/engine/local-job.js";
import { ANA, openJob } from "../test/support/engine/person.js";
import { gate, writeArtifact } from "../test/support/engine/recordings.js";
import { call, recording, tools } from "../test/support/engine/script.js";
import { median, type BenchResult } from "./bench-result.js";

const LEAD = "intent-lead@state:intent:1";
const TEXT = "Also greet in French.";
/** Where in the turn the comment lands, in calls (0.3 = 30% into the first call). */
const OFFSETS = [0.3, 1.5, 2.9, 4.1, 5.7];
const LEAD_CALLS = 14;

interface Trial {
  /** How long a model call takes, ms. */
  callMs: number;
  pollMs: number;
  /** The wake's monotonic clock advances with the calls instead of waiting for them. */
  virtual: boolean;
}

async function trial(offsetCalls: number, t: Trial): Promise<{ ms: number; calls: number }> {
  const script = createConversationModel(
    recording({
      [LEAD]: [
        ...Array.from({ length: LEAD_CALLS }, () => tools(call("list_files", {}))),
        writeArtifact("INTENT.md", "# Intent\n"),
        gate("INTENT.md"),
      ],
    }),
  );
  let virtualNow = 0;
  const now = () => (t.virtual ? virtualNow : performance.now());
  let postedAt: number | null = null;
  let heardAt: number | null = null;
  let callsSince = 0;
  let startedAt: number | null = null;
  let scheduled: NodeJS.Timeout | null = null;
  const made: { job?: LocalJob } = {};
  const post = async () => {
    postedAt = now();
    await made.job!.forge.commentAs(ANA, 1, `/intervene ${TEXT}`);
  };
  const model: Model = {
    async complete(request, options) {
      const lead = request.instance === LEAD;
      // The person's clock starts with the lead's first call (the wake's own start-up —
      // config, worktree, records — is not the intervention's latency).
      if (lead && startedAt === null) {
        startedAt = now();
        if (!t.virtual) scheduled = setTimeout(() => void post(), offsetCalls * t.callMs);
      }
      if (postedAt !== null && heardAt === null) {
        callsSince += 1;
        if (JSON.stringify(request.messages).includes(TEXT)) heardAt = now();
      }
      if (t.virtual) {
        // The comment lands during this call if its moment falls before the call ends.
        const end = virtualNow + t.callMs;
        const at = startedAt === null ? null : startedAt + offsetCalls * t.callMs;
        if (postedAt === null && at !== null && at < end) {
          virtualNow = at;
          await post();
        }
        virtualNow = end;
      } else {
        await new Promise((r) => setTimeout(r, t.callMs));
      }
      return script.complete(request, options);
    },
  };
  const job = (made.job = await createLocalJob({ model }));
  try {
    await openJob(job);
    await wake(1, {
      ...job.deps,
      commandPollMs: t.pollMs,
      ...(t.virtual ? { monotonic: () => virtualNow } : {}),
    });
    if (scheduled !== null) clearTimeout(scheduled);
    if (postedAt === null || heardAt === null) throw new Error("bench: the lead never heard it");
    return { ms: heardAt - postedAt, calls: callsSince };
  } finally {
    await job.cleanup();
  }
}

const TRIALS: Trial[] = [
  { callMs: 200, pollMs: 0, virtual: false },
  { callMs: 200, pollMs: 1000, virtual: false },
  { callMs: 5000, pollMs: DEFAULT_COMMAND_POLL_MS, virtual: true },
  { callMs: 20_000, pollMs: DEFAULT_COMMAND_POLL_MS, virtual: true },
];

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const t of TRIALS) {
    const ms: number[] = [];
    const calls: number[] = [];
    for (const offset of OFFSETS) {
      const r = await trial(offset, t);
      ms.push(r.ms);
      calls.push(r.calls);
    }
    const clock = t.virtual ? "wake's clock" : "wall clock";
    out.push({
      name: `intervene → lead's next request (call ${t.callMs} ms, poll ≤ every ${t.pollMs} ms, ${clock})`,
      unit: "ms",
      median: median(ms),
      runs: ms.length,
      extra: {
        max_ms: Math.max(...ms),
        median_calls: median(calls),
        max_calls: Math.max(...calls),
        bound_ms: t.pollMs + t.callMs,
      },
    });
  }
  return out;
}
