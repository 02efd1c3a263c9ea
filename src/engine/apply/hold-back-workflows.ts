// A turn's changes under `.github/workflows/` held back before its commit, unless the
// repository allows pushing them (tree/workflow-files.ts says why GitHub refuses such a push),
// and the agent told why at its next turn.

import type { Address } from "../../protocol/address.js";
import { orchestrate } from "../flow/orchestrator.js";
import {
  applyChange,
  progress,
  type BusLog,
  type Conversation,
  type Session,
} from "../job/session.js";
import { heldBackMessage, restoreWorkflowChanges } from "../tree/workflow-files.js";

/**
 * Before a turn is committed: holds back its workflow changes unless the repository allows
 * pushing them. Returns the paths held back (the caller tells the agent, see tellHeldBack).
 */
export async function holdBackWorkflowChanges(s: Session, root: string): Promise<string[]> {
  if (s.config.pushWorkflows) return [];
  // The job worktree's check looks with its repo, for the turn's commit to reuse.
  const held = await restoreWorkflowChanges(
    root,
    root === s.jobWs.root && s.jobTreeTurns.size === 0 ? s.repo : undefined,
  );
  if (held.length === 0) return [];
  applyChange(s, { type: "workflows-held-back", paths: held });
  progress(s, "ENGINE", "HELD BACK", `workflow files: ${held.join(", ")}`);
  return held;
}

/** The agent whose turn changed workflow files hears why, at its next turn. */
export async function tellHeldBack(
  s: Conversation & BusLog,
  to: Address,
  held: string[],
): Promise<void> {
  if (held.length === 0 || s.soup.isTerminated(to.thread)) return;
  await orchestrate(s, { kind: "observe", text: `workflow files held back on ${to.thread}` }, [
    { kind: "deliver", to, content: { kind: "recovery", text: heldBackMessage(held) } },
  ]);
}
