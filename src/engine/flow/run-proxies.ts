// The proxies with work to do (seed 000 §7), each run in turn before any round: their answers
// are what the agents wait on. A proxy's run counts like a turn — a success resets the
// consecutive-failure count, a proxy that cannot run is a state-level failure — and its calls
// count against the caps.

import { isLiveState } from "../../protocol/fsm.js";
import { recordSuccessfulTurn } from "../../protocol/failure.js";
import { isModelUnavailable } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import { persist, progress, type Session } from "../job/session.js";
import { runtimeOf } from "../job/wake-runtime.js";
import { waitForApi } from "../turn/api-wait.js";
import { enforceJobCaps } from "./enforce-caps.js";
import { proxiesToRun, runProxy } from "./escalations.js";
import { failState } from "./fail-state.js";

/** `waiting`: the model is unavailable, the wake ends (api-wait.ts). */
export async function runProxies(s: Session): Promise<"none" | "ran" | "waiting"> {
  let ran: "none" | "ran" = "none";
  for (const m of proxiesToRun(s)) {
    if (!isLiveState(s.job.state)) break;
    try {
      await runProxy(s, m);
      // A proxy's turn that ran is a successful turn in the state (failure.ts).
      s.job = recordSuccessfulTurn(s.job);
    } catch (error) {
      if (isModelUnavailable(error)) {
        await waitForApi(s, error);
        return "waiting";
      }
      // The runner's disk is full: the wake pauses the job (job/disk-pause.ts).
      if (isDiskFull(error)) throw error;
      // A proxy that cannot run (its model refuses every request, say) is a state-level
      // failure like a lead's failed turn: retried, then FAILURE — never a job that throws
      // at every wake and so never ends (seed 000 §12 "Termination guaranteed").
      const reason = `proxy ${m.id}: ${((error as Error).message ?? String(error)).slice(0, 500)}`;
      progress(s, "PROXY", "ERROR", reason);
      await failState(s, reason, null, "");
    }
    await persist(s, `cfa #${s.n}: ${s.job.state} proxy ${m.id}`);
    await runtimeOf(s).journal?.clear();
    ran = "ran";
    // A proxy's calls count like any turn's (issue 11 point 6): the caps after each.
    await enforceJobCaps(s);
  }
  return ran;
}
