// Driving a job as its person would: wake it, approve each gate it stops at, until it ends.

import { wake, type EngineDeps, type WakeSummary } from "../../../src/engine/index.js";
import { approve } from "./person.js";
import type { LocalJob } from "./local-job.js";

const TERMINAL = ["DONE", "WITHDRAWN", "FAILURE"];

/** Wakes job 1 with `deps`, approving every gate, until a terminal (at most `wakes` wakes). */
export async function driveToEnd(
  job: LocalJob,
  deps: EngineDeps,
  wakes = 12,
): Promise<WakeSummary> {
  for (let i = 0; i < wakes; i++) {
    const summary = await wake(1, deps);
    if (summary.state !== null && TERMINAL.includes(summary.state)) return summary;
    if (!summary.waitingOn.includes("to review")) {
      throw new Error(`test: the job stopped without a gate: ${summary.waitingOn}`);
    }
    await approve(job);
  }
  throw new Error(`test: the job did not end in ${wakes} wakes`);
}
