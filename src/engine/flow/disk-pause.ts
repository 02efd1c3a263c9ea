// The runner's disk is full: ENOSPC or EDQUOT at a write, a commit or a git
// command (ports/disk-full.ts). Before, every wake threw until someone freed space. Now it
// is what an API outage is (turn/api-wait.ts): nobody's failure, no retry budget spent, the
// job live. The wake drops the round in flight — its files go with it, which often frees
// the very space an agent's command filled — accounts the calls it paid, records since when
// the disk is full (when there is room to commit that) and ends; the status comment says the
// runner's disk is full and what to do. The next wake carries on from the last commit; the
// pause ends when a round is applied.
//
// A round that fills the disk again every time it is redone would pause the job forever
// (its responses replay from the journal, so its commands are the same). Pauses are
// counted in a row: the third, when dropping the round did free the space (the pause could
// be committed), is a state-level failure of the turn that met it (termination,
// docs/protocol.md#invariants: the retry budget bounds it), and the agent hears why, so its
// next request differs.

import type { Address } from "../../protocol/address.js";
import { diskFullDetail, isDiskFull } from "../../ports/disk-full.js";
import { failState } from "./fail-state.js";
import { currentLead } from "../job/instances.js";
import { charge } from "../turn/charges.js";
import { reloadRecords } from "../turn/api-wait.js";
import {
  applyChange,
  now,
  persist,
  progress,
  resetTaskWorktrees,
  type JobRecords,
  type Session,
} from "../job/session.js";
import { runtimeOf } from "../turn/wake-runtime.js";

/** Pauses in a row before the round that keeps filling the disk fails instead. */
export const DISK_PAUSES_BEFORE_FAILURE = 3;

/** Sessions that paused in this wake (a later wake's session is a new object). */
const pausedNow = new WeakSet<JobRecords>();

/** What the person is told to do (the status comment's waiting-on line and the wake's note). */
export function diskFullAdvice(since: string, last: string): string {
  return `free disk space on the runner — the job is paused since ${since}: the runner's disk is full (${last}). Free space (a self-hosted runner's work folder, or a larger runner); the sweep or \`cfa resume\` carries on from the last commit, and only the round in flight is redone.`;
}

/**
 * Pauses the job for a full disk met by `culprit`'s turn (when known); throws only what is
 * not the disk being full.
 */
export async function pauseForDisk(
  s: Session,
  error: unknown,
  culprit: Address | null = null,
): Promise<void> {
  const last = diskFullDetail(error) ?? "no space left on device";
  // The tasks' worktrees first: what a worker's command wrote there is what fills the disk
  // most often, and the job's own reset needs room for its index.
  await tolerateFullDisk(s, "drop the tasks' files", () => resetTaskWorktrees(s));
  await tolerateFullDisk(s, "drop the round in flight", async () => {
    await s.repo.resetToHead();
    await reloadRecords(s);
    await resetTaskWorktrees(s);
  });
  for (const id of [...s.taskWs.keys()]) if (!s.engine.tasks[id]) s.taskWs.delete(id);
  // Calls the dropped round paid are the job's cost all the same.
  const journal = runtimeOf(s).journal;
  for (const entry of journal?.unaccounted(s.engine.calls ?? 0) ?? []) {
    charge(s, entry.response.usage, entry.costUsd);
    applyChange(s, { type: "calls-accounted", through: entry.seq });
  }
  const inARow = (s.engine.diskFull?.pauses ?? 0) + 1;
  if (inARow >= DISK_PAUSES_BEFORE_FAILURE && (await roomToCommit(s))) {
    await failRound(s, last, culprit ?? currentLead(s));
    return;
  }
  applyChange(s, { type: "disk-full", since: now(s), last });
  pausedNow.add(s);
  const note = diskFullAdvice(s.engine.diskFull!.since, last);
  s.notes.push(note);
  progress(s, "DISK", "FULL", note);
  await tolerateFullDisk(s, "record the pause", () =>
    persist(s, `cfa #${s.n}: paused: the runner's disk is full`),
  );
}

/**
 * The pause is over: a round was applied, or a wake ends without having met a full disk
 * (its redone round, say, needed no more room).
 */
export function clearDiskPause(s: JobRecords, options: { unlessPausedNow?: boolean } = {}): void {
  if (s.engine.diskFull === undefined) return;
  if (options.unlessPausedNow && pausedNow.has(s)) return;
  applyChange(s, { type: "disk-cleared" });
}

/** Whether this wake paused the job for a full disk. */
export function pausedForDisk(s: JobRecords): boolean {
  return pausedNow.has(s);
}

/** The round filled the disk again and again: its turn fails, the agent hears why. */
async function failRound(s: Session, last: string, to: Address | null): Promise<void> {
  applyChange(s, { type: "disk-cleared" });
  const reason = `the runner's disk filled up during the same round ${DISK_PAUSES_BEFORE_FAILURE} times in a row (${last}); it was dropped each time`;
  progress(s, "DISK", "FULL", reason);
  s.notes.push(reason);
  await failState(
    s,
    reason,
    to,
    `Your last turn filled the runner's disk (${last}) ${DISK_PAUSES_BEFORE_FAILURE} times in a row; each time it was dropped and redone. Write less into the workspace: large output belongs outside it, or nowhere.`,
  );
  await persist(s, `cfa #${s.n}: ${s.job.state} the round keeps filling the disk`);
}

/** After the round was dropped: whether a commit fits now (the round made the disk full). */
async function roomToCommit(s: Session): Promise<boolean> {
  try {
    await persist(s, `cfa #${s.n}: the round in flight was dropped: the disk was full`);
    return true;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    return false;
  }
}

async function tolerateFullDisk(
  s: Session,
  what: string,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    s.deps.logger.warn(
      `cfa #${s.n}: the disk is full: could not ${what}: ${diskFullDetail(error)}`,
    );
  }
}
