// The model's API stayed away past the adapter's patience (ModelUnavailableError): the outside
// world is unreliable, not wrong. That is nobody's failure: no retry budget is spent and the job
// stays live. The wake gives up what is not committed — the turns in flight never happened, its
// messages are back in their mailboxes — keeps every paid response in the journal (carried in
// state.json, so another runner replays them instead of paying again: response-journal.ts), records
// since when it waits, and ends. The status comment says "waiting for the Anthropic API since …";
// the sweep or `cfa resume` wakes the job again.
//
// Why every turn in flight and not only the turn that met the outage: the other turns' host
// effects (a task provisioned, a verdict, the lead's files) are interleaved in the same
// records, and undoing one turn's share is error-prone; their calls are all journalled, so
// redoing them costs no tokens, only the local tool calls.

import { fold } from "../../protocol/bus/index.js";
import { parseJobRecord } from "../../protocol/job-record.js";
import type { ModelUnavailableError } from "../../ports/model.js";
import { charge } from "./charges.js";
import { engineState } from "../../records/engine-state.js";
import { readText } from "../tree/files.js";
import {
  applyChange,
  appendsSettled,
  now,
  persist,
  progress,
  resetTaskWorktrees,
  type BusLog,
  type Conversation,
  type JobRecords,
  type Session,
  type Reporter,
} from "../job/session.js";
import { runtimeOf } from "./wake-runtime.js";

export async function waitForApi(s: Session, error: ModelUnavailableError): Promise<void> {
  const rt = runtimeOf(s);
  // What the round did is dropped: files, records, the soup (as for a crash,
  // docs/protocol.md#persistence).
  await s.repo.resetToHead();
  await reloadRecords(s);
  await resetTaskWorktrees(s);
  for (const id of [...s.taskWs.keys()]) if (!s.engine.tasks[id]) s.taskWs.delete(id);
  // Its calls were paid: the record accounts them now, once (their journal numbers).
  const journal = rt.journal;
  for (const entry of journal?.unaccounted(s.engine.calls ?? 0) ?? []) {
    charge(s, entry.response.usage, entry.costUsd);
    applyChange(s, { type: "calls-accounted", through: entry.seq });
  }
  const credentials = error.fields.reason === "credentials";
  applyChange(s, {
    type: "api-waiting",
    // Refused credentials are dated by the job's clock: the adapter never waited.
    since: credentials ? now(s) : error.fields.since,
    attempts: error.fields.attempts,
    last: error.fields.last,
    carried: journal?.carry() ?? [],
    ...(credentials ? { reason: "credentials" as const } : {}),
  });
  const since = s.engine.apiWait!.since;
  const carryOn = carryOnHint(s);
  // Refused credentials are configuration, not the job's failure — it stops
  // live, saying what to fix; no retry budget is spent.
  const note = credentials
    ? `${error.fields.last}. The job is live: fix that, then ${carryOn} carries it on`
    : `the Anthropic API is unavailable (since ${since}; last: ${error.fields.last.slice(0, 120)}): the job waits, live; ${carryOn} tries again`;
  s.notes.push(note);
  progress(s, "MODEL", credentials ? "CREDENTIALS" : "UNAVAILABLE", note);
  await persist(
    s,
    credentials
      ? `cfa #${s.n}: waiting for working model credentials`
      : `cfa #${s.n}: waiting for the Anthropic API since ${since}`,
  );
}

/** How a person carries the job on: the CLI's words, or GitHub's (the next event, the sweep). */
export function carryOnHint(s: Reporter): string {
  return s.deps.carryOn?.(s.n) ?? "the next event on the issue (or the sweep)";
}

/** The job record and the soup as last committed (after `resetToHead`). */
export async function reloadRecords(s: JobRecords & Conversation & BusLog): Promise<void> {
  await appendsSettled(s);
  const stateText = await readText(s.jobWs.root, s.paths.state);
  if (stateText === null) throw new Error(`cfa/engine: ${s.paths.state} is missing at HEAD`);
  s.job = parseJobRecord(stateText, s.paths.state);
  s.engine = engineState(s.job);
  const busText = (await readText(s.jobWs.root, s.paths.bus)) ?? "";
  const folded = fold(busText, { fanOutCap: s.config.fanOut });
  s.soup = folded.soup;
  s.log = { seq: folded.seq, batch: folded.batch };
}
