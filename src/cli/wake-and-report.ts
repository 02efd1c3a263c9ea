// Wake a job and end with its state and the next command to type (issue 4 §4).

import { wake } from "../engine/wake.js";
import type { CliIo } from "./cli-io.js";
import { readJobRecords } from "./job-records.js";
import { readJobView } from "./job-view.js";
import type { LocalSession } from "./local-session.js";
import { nextStep, type NextStepOptions } from "./next-step.js";

/** Exit code: 0 when the job rests (waiting on the person, DONE or WITHDRAWN), 1 otherwise. */
export async function wakeAndReport(
  io: CliIo,
  session: LocalSession,
  n: number,
  next: NextStepOptions,
  signal?: AbortSignal,
): Promise<number> {
  let summary;
  try {
    summary = await wake(n, session.deps, signal ? { signal } : {});
  } finally {
    session.finish();
  }
  for (const note of summary.notes) io.stdout.write(`note: ${note}\n`);
  const texts = await readJobRecords(session.repoDir, n);
  const lines = texts ? nextStep(readJobView(texts), next) : [`job #${n}: ${summary.waitingOn}`];
  io.stdout.write(`\n${lines.join("\n")}\n`);
  return summary.state === null || summary.state === "FAILURE" ? 1 : 0;
}
