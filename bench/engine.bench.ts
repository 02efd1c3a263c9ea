// The engine's own cost per turn, model time excluded (issue 4's note): a whole job
// (INTENT → PLAN → EXECUTE with two verified, merged tasks → DONE) on the local forge over
// real git, with a scripted model that answers at once. What remains is orchestration:
// folding, records, one commit per turn, worktrees, merges, comments.

import { performance } from "node:perf_hooks";
import { wake } from "../src/engine/index.js";
import type { Model } from "../src/ports/model.js";
import { createScriptedModel } from "../src/adapters/scripted/index.js";
import { createLocalJob } from "../test/support/engine/local-job.js";
import { openJob, approveGates } from "../test/support/engine/person.js";
import { happyRecording } from "../test/support/engine/recordings.js";
import { state } from "../test/support/engine/inspect.js";
import { median, type BenchResult } from "./bench-result.js";

const RUNS = 5;

function timed(inner: Model): { model: Model; ms: () => number } {
  let ms = 0;
  return {
    model: {
      async complete(request, options) {
        const start = performance.now();
        try {
          return await inner.complete(request, options);
        } finally {
          ms += performance.now() - start;
        }
      },
    },
    ms: () => ms,
  };
}

export async function run(): Promise<BenchResult[]> {
  const perTurn: number[] = [];
  const perJob: number[] = [];
  let turns = 0;
  for (let i = 0; i < RUNS; i++) {
    const model = timed(createScriptedModel(happyRecording(), { source: "bench" }));
    const job = await createLocalJob({ model: model.model });
    try {
      await openJob(job);
      const start = performance.now();
      const summary = await approveGates(job, 3, wake);
      const wall = performance.now() - start;
      if (summary.state !== "DONE") throw new Error(`bench: the job ended ${summary.state}`);
      turns = state(job).turns;
      perJob.push(wall);
      perTurn.push((wall - model.ms()) / turns);
    } finally {
      await job.cleanup();
    }
  }
  return [
    {
      name: "orchestration overhead per turn (model time excluded)",
      unit: "ms/turn",
      median: median(perTurn),
      runs: RUNS,
      extra: { turns, min: Math.min(...perTurn), max: Math.max(...perTurn) },
    },
    {
      name: "whole job, scripted model (INTENT → DONE, 2 tasks)",
      unit: "ms",
      median: median(perJob),
      runs: RUNS,
    },
  ];
}
