// Charging model calls to the job: each response is priced on its
// own the moment it arrives and added to the job record in memory, so every cap checked at
// the next call boundary sees it — in flight, before its turn is applied or committed.

import type { ModelUsage } from "../../ports/model.js";
import { JournalBranch } from "./journal-branch.js";
import { ResponseJournal } from "./response-journal.js";
import { applyChange, type Session, type JobRecords } from "../job/session.js";
import { runtimeOf } from "./wake-runtime.js";

/** Adds one call to the record; returns its number (its journal seq). */
export function charge(s: JobRecords, usage: ModelUsage, costUsd: number): number {
  applyChange(s, { type: "call-charged", usage, costUsd });
  return s.engine.calls ?? 0;
}

/**
 * Opens the wake's response journal: the area's file plus what another runner carried in
 * state.json. Calls it holds that the record has not accounted (paid after the last commit
 * of a wake that died or gave up) are charged now, once.
 */
export async function openJournal(s: Session): Promise<void> {
  const rt = runtimeOf(s);
  // What an earlier run pushed (journal-branch.ts) and what an outage carried in state.json,
  // besides this area's file: the same entry in several places is taken once.
  const { branch, lines } =
    s.deps.journalBranch === false
      ? { branch: null, lines: [] }
      : await JournalBranch.open(s.deps.repoDir, s.deps.forge, s.n, s.deps.logger);
  const journal = await ResponseJournal.open(
    s.area,
    [...(s.engine.journal ?? []), ...lines],
    (problem) => s.deps.logger.warn(`cfa #${s.n}: response journal: skipped ${problem}`),
  );
  if (branch !== null) journal.mirror = (entries, options) => branch.publish(entries, options);
  rt.journalBranch = branch;
  for (const entry of journal.unaccounted(s.engine.calls ?? 0)) {
    charge(s, entry.response.usage, entry.costUsd);
    applyChange(s, { type: "calls-accounted", through: entry.seq });
  }
  // Now in this area's file: the record stops carrying it at its next commit.
  applyChange(s, { type: "journal-unloaded" });
  rt.journal = journal;
}
