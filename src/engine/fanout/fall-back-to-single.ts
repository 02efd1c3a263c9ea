// The job's fall-back to `single`: a dispatch the repository refuses (no
// `task` job: 404/422; no permission: 403) makes every task run in the lead's run from then on,
// said once in the status comment (`fanout.single`). A task already in a run of its own is
// taken over at once — its run cancelled, its branch put back at its last folded turn's tree
// (take-over-task.ts) — rather than worked by the lead while that run still pushes: every
// branch keeps one writer. One whose branch moves under the takeover (the cancelled run still
// pushing) stays in its run for the next wake's watch to take over (runsElsewhere).

import { applyChange, type Session } from "../job/session.js";
import { takeOverFromRun } from "./take-over-task.js";

/** Records `single` and takes over every other task still in a run of its own. */
export async function fallBackToSingle(s: Session, reason: string, except: string): Promise<void> {
  applyChange(s, { type: "task-runs-single", reason });
  for (const [id, ledger] of Object.entries(s.engine.fanout?.tasks ?? {})) {
    if (id === except || ledger.runId === null || s.engine.tasks[id]?.status !== "open") continue;
    await takeOverFromRun(s, id, ledger, `its run ${ledger.runId} cancelled`);
  }
}
