// The response journal's cost (it is pushed so a crash's calls are charged once): how many pushes
// of its branch (`cfa-journal/<N>`, engine/turn/journal-branch.ts) a turn costs, against the number
// of model calls the turn makes (the floor would be one push per call). A real engine on the local
// forge and real git; the lead's turn makes CALLS model calls, each taking `callMs`; every
// pushBranch of the journal's branch is counted. Pushes are coalesced, so slow calls (real ones
// take 10–60 s) cost one push each and fast ones share. On GitHub each push is one git round trip
// (≈ 0.3–1 s), made while the next call runs.

import { performance } from "node:perf_hooks";
import { wake } from "../src/engine/index.js";
import type { Forge } from "../src/ports/forge.js";
import type { Model } from "../src/ports/model.js";
import { createConversationModel } from "../test/support/engine/conversation-model.js";
import { createLocalJob } from "../test/support/engine/local-job.js";
import { openJob } from "../test/support/engine/person.js";
import { gate, writeArtifact } from "../test/support/engine/recordings.js";
import { call, recording, tools } from "../test/support/engine/script.js";
import { median, type BenchResult } from "./bench-result.js";

const LEAD = "intent-lead@state:intent:1";
const CALLS = 20;
const RUNS = 3;

async function trial(callMs: number): Promise<{ pushes: number; calls: number; ms: number }> {
  const script = createConversationModel(
    recording({
      [LEAD]: [
        ...Array.from({ length: CALLS - 2 }, () => tools(call("list_files", {}))),
        writeArtifact("INTENT.md", "# Intent\n"),
        gate("INTENT.md"),
      ],
    }),
  );
  const model: Model = {
    async complete(request, options) {
      await new Promise((r) => setTimeout(r, callMs));
      return script.complete(request, options);
    },
  };
  const job = await createLocalJob({ model });
  try {
    await openJob(job);
    let pushes = 0;
    const forge = job.deps.forge;
    const counting = new Proxy(forge, {
      get(target, property, receiver) {
        if (property === "pushBranch") {
          return (branch: string, update: Parameters<Forge["pushBranch"]>[1]) => {
            if (branch.startsWith("cfa-journal/")) pushes += 1;
            return target.pushBranch(branch, update);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const start = performance.now();
    await wake(1, { ...job.deps, forge: counting });
    return { pushes, calls: script.requests.length, ms: performance.now() - start };
  } finally {
    await job.cleanup();
  }
}

export async function run(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const callMs of [0, 20, 100]) {
    const results = [];
    for (let i = 0; i < RUNS; i++) results.push(await trial(callMs));
    rows.push({
      name: `journal pushes per turn, calls of ${callMs} ms`,
      unit: "pushes/turn",
      median: median(results.map((r) => r.pushes)),
      runs: RUNS,
      extra: {
        calls_per_turn: median(results.map((r) => r.calls)),
        pushes_per_call: median(results.map((r) => r.pushes / r.calls)),
        wake_ms: median(results.map((r) => r.ms)),
      },
    });
  }
  return rows;
}
