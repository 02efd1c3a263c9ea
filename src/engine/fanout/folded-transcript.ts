// Where a task's next run resumes its worker's conversation: the turns the
// lead folded, as the earlier runs left them on the task branch — the transcript at the head
// of the last folded turn's record, not at the branch's tip. A dead run may have ended a turn
// after it (transcript committed, its record never counted: the lead had given up on that
// epoch); that turn's mail is still waiting in the lead's bus and the next run takes it again,
// so carrying the tip's transcript would put the same turn twice in the worker's conversation,
// and the lead would refuse the transcript (task-transcript-take.ts counts the turns it
// delivered). Cut here as the lead cuts it, the next run continues what the lead took.

import type { TaskTurnRecord } from "../../records/task-turn-record.js";
import { TASK_TRANSCRIPT_PATH } from "../../records/task-turn-record.js";
import type { TaskLedger } from "./fold-task-records.js";
import type { RunGit } from "./leased-refs.js";

/** The transcript through the last folded turn, or null when no folded turn left one. */
export async function foldedTranscript(
  git: RunGit,
  records: readonly TaskTurnRecord[],
  ledger: Pick<TaskLedger, "epoch" | "folded">,
): Promise<string | null> {
  // The folded record of turn `folded` is the newest epoch's: the lead folds only the epoch it
  // trusts, and a run starts at the turn after the last one folded (wake-task.ts).
  const last = records
    .filter((r) => r.ended && r.seq === ledger.folded && r.epoch <= ledger.epoch)
    .sort((a, b) => b.epoch - a.epoch)[0];
  if (last?.head == null) return null;
  try {
    return await git(["show", `${last.head}:${TASK_TRANSCRIPT_PATH}`]);
  } catch {
    // No transcript at that commit (a run that wrote none): nothing to carry.
    return null;
  }
}
