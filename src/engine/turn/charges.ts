// Charging model calls to the job (issue 9 points 5 and 7): each response is priced on its
// own the moment it arrives and added to the job record in memory, so every cap checked at
// the next call boundary sees it — in flight, before its turn is applied or committed.

import type { ModelUsage } from "../../ports/model.js";
import { ResponseJournal } from "./response-journal.js";
import type { Session } from "../job/session.js";
import { runtimeOf } from "../job/wake-runtime.js";

/** Adds one call to the record; returns its number (its journal seq). */
export function charge(s: Session, usage: ModelUsage, costUsd: number): number {
  const u = s.job.usage;
  const calls = (s.engine.calls ?? 0) + 1;
  s.job = {
    ...s.job,
    usage: {
      inputTokens: u.inputTokens + usage.inputTokens,
      outputTokens: u.outputTokens + usage.outputTokens,
      cacheReadTokens: u.cacheReadTokens + usage.cacheReadTokens,
      cacheWriteTokens: u.cacheWriteTokens + usage.cacheWriteTokens,
    },
    costUsd: s.job.costUsd + costUsd,
  };
  s.engine = { ...s.engine, calls };
  return calls;
}

/**
 * Opens the wake's response journal: the area's file plus what another runner carried in
 * state.json. Calls it holds that the record has not accounted (paid after the last commit
 * of a wake that died or gave up) are charged now, once.
 */
export async function openJournal(s: Session): Promise<void> {
  const rt = runtimeOf(s);
  const journal = await ResponseJournal.open(s.area, s.engine.journal ?? [], (problem) =>
    s.deps.logger.warn(`cfa #${s.n}: response journal: skipped ${problem}`),
  );
  for (const entry of journal.unaccounted(s.engine.calls ?? 0)) {
    charge(s, entry.response.usage, entry.costUsd);
    s.engine = { ...s.engine, calls: Math.max(s.engine.calls ?? 0, entry.seq) };
  }
  if (s.engine.journal !== undefined) {
    // Now in this area's file: the record stops carrying it at its next commit.
    const { journal: _carried, ...rest } = s.engine;
    s.engine = rest;
  }
  rt.journal = journal;
}
