// Intervention latency (issue 11 point 1): from the person's `/intervene` comment to the
// current lead's first model request that carries it, in model calls and in milliseconds.
// A real engine on the local forge and real git; the lead's model is scripted, each call
// taking CALL_MS, and the comment lands at different points of a long turn. The engine
// looks for comments at every model-call boundary, at most every `commandPollMs`: 0 is the
// local forge's setting, 5000 the default on GitHub (scaled down here to 1000 so the
// bench stays short; the latency bound scales with it).

import { performance } from "node:perf_hooks";
import { wake } from "../src/engine/wake.js";
import type { Model } from "../src/ports/model.js";
import { createConversationModel } from "../test/support/engine/conversation-model.js";
import { createLocalJob, type LocalJob } from "../test/support/engine/local-job.js";
import { ANA, openJob } from "../test/support/engine/person.js";
import { gate, writeArtifact } from "../test/support/engine/recordings.js";
import { call, recording, tools } from "../test/support/engine/script.js";
import { median, type BenchResult } from "./bench-result.js";

const LEAD = "intent-lead@state:intent:1";
const TEXT = "Also greet in French.";
const CALL_MS = 200;
/** Where in the turn the comment lands, in calls (0.3 = 30% into the first call). */
const OFFSETS = [0.3, 1.5, 2.9, 4.1, 5.7];

async function trial(offsetCalls: number, pollMs: number): Promise<{ ms: number; calls: number }> {
  const script = createConversationModel(
    recording({
      [LEAD]: [
        ...Array.from({ length: 10 }, () => tools(call("list_files", {}))),
        writeArtifact("INTENT.md", "# Intent\n"),
        gate("INTENT.md"),
      ],
    }),
  );
  let postedAt: number | null = null;
  let heardAt: number | null = null;
  let callsSince = 0;
  let scheduled: NodeJS.Timeout | null = null;
  const made: { job?: LocalJob } = {};
  const model: Model = {
    async complete(request, options) {
      // The person's clock starts with the lead's first call (the wake's own start-up —
      // config, worktree, records — is not the intervention's latency).
      if (scheduled === null && request.instance === LEAD) {
        const j = made.job!;
        scheduled = setTimeout(() => {
          postedAt = performance.now();
          void j.forge.commentAs(ANA, 1, `/intervene ${TEXT}`);
        }, offsetCalls * CALL_MS);
      }
      if (postedAt !== null && heardAt === null) {
        callsSince += 1;
        if (JSON.stringify(request.messages).includes(TEXT)) heardAt = performance.now();
      }
      await new Promise((r) => setTimeout(r, CALL_MS));
      return script.complete(request, options);
    },
  };
  const job = (made.job = await createLocalJob({ model }));
  try {
    await openJob(job);
    await wake(1, { ...job.deps, commandPollMs: pollMs });
    if (scheduled !== null) clearTimeout(scheduled);
    if (postedAt === null || heardAt === null) throw new Error("bench: the lead never heard it");
    return { ms: heardAt - postedAt, calls: callsSince };
  } finally {
    await job.cleanup();
  }
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  for (const pollMs of [0, 1000]) {
    const ms: number[] = [];
    const calls: number[] = [];
    for (const offset of OFFSETS) {
      const t = await trial(offset, pollMs);
      ms.push(t.ms);
      calls.push(t.calls);
    }
    out.push({
      name: `intervene → lead's next request (call ${CALL_MS} ms, poll ≤ every ${pollMs} ms)`,
      unit: "ms",
      median: median(ms),
      runs: ms.length,
      extra: {
        max_ms: Math.max(...ms),
        median_calls: median(calls),
        max_calls: Math.max(...calls),
        call_ms: CALL_MS,
      },
    });
  }
  return out;
}
