// Wake a job and end with its state and the next command to type.

import { wake, type WakeSummary } from "../engine/index.js";
import { isTerminalState } from "../protocol/fsm.js";
import type { CliIo } from "./cli-io.js";
import { readJobRecords } from "./job-records.js";
import { readJobView } from "./job-view.js";
import type { LocalSession } from "./local-session.js";
import { nextStep, type NextStepOptions } from "./next-step.js";

/**
 * Exit code: 0 when the job rests (waiting on the person, DONE or WITHDRAWN), 1 when it
 * failed or could not start, or stopped live on the model (refused credentials, an API away
 * past the patience, neither the job's fault), 130 when stopped by `signal` (Ctrl-C).
 */
export async function wakeAndReport(
  io: CliIo,
  session: LocalSession,
  n: number,
  next: NextStepOptions,
  signal?: AbortSignal,
): Promise<number> {
  let summary: WakeSummary | null = null;
  try {
    summary = await wake(n, session.deps, signal ? { signal } : {});
  } catch (error) {
    if (!signal?.aborted) throw error;
  } finally {
    await session.finish();
  }
  for (const note of summary?.notes ?? []) io.stdout.write(`note: ${note}\n`);
  const texts = await readJobRecords(session.repoDir, n);
  if (summary === null) {
    io.stderr.write(
      `cfa: stopped. Job #${n} keeps every complete turn; ${next.cli} watch ${n}${next.repoArg} shows where it is.\n`,
    );
    return 130;
  }
  if (summary.busy !== undefined) {
    // `cfa intervene` (or another verb) while `cfa run` works in another terminal: that wake
    // reads the comment at its agents' next model call (src/engine/people/poll-interventions.ts).
    io.stdout.write(
      `\nThe wake already running (pid ${summary.busy.pid}) takes it from here; ${next.cli} watch ${n}${next.repoArg} follows it.\n`,
    );
    return 0;
  }
  const view = texts ? readJobView(texts) : null;
  const lines = view ? nextStep(view, next) : [`job #${n} waits on ${summary.waitingOn}`];
  const live = summary.state !== null && !isTerminalState(summary.state);
  const wait = view?.engine?.apiWait;
  const gateway = shownUrl(io.env.ANTHROPIC_BASE_URL);
  if (live && wait !== undefined && wait.reason !== "credentials" && gateway !== null) {
    // Every call went to the gateway the environment names: a typo there looks like an outage.
    lines.push(`  every call went to ANTHROPIC_BASE_URL (${gateway}): check it is right and up.`);
  }
  io.stdout.write(`\n${lines.join("\n")}\n`);
  // A wait on the model's API matters only while the job is live: a job withdrawn while it
  // waited keeps the record of that wait, and withdrawing it was no failure.
  const stoppedOnModel = live && wait !== undefined;
  return summary.state === null || summary.state === "FAILURE" || stoppedOnModel ? 1 : 0;
}

/** A URL without what may be a credential in it (user and password, query); null when unset. */
function shownUrl(value: string | undefined): string | null {
  const text = value?.trim() ?? "";
  if (text === "") return null;
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "not a URL";
  }
}
