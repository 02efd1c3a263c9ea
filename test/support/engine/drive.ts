// Driving a job as its person would: wake it, approve each gate it stops at, until it ends.

import { expect } from "vitest";
import { wake, type EngineDeps, type WakeSummary } from "../../../src/engine/index.js";
import type { ConversationModel } from "./conversation-model.js";
import { approve, openJob } from "./person.js";
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

/**
 * Opens job 1 and wakes it once, to DONE, with a strict scripted model: every step played as
 * scripted, no expectation missed and none left over.
 */
export async function wakeToDone(
  job: LocalJob,
  model: ConversationModel & { errors: unknown[] },
): Promise<void> {
  await openJob(job);
  const summary = await wake(1, job.deps);
  expect(summary.state).toBe("DONE");
  expect(model.errors).toEqual([]);
  expect(model.unplayed()).toEqual({});
}
