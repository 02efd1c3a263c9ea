// The proxies with work to do (docs/protocol.md#escalation), each run in turn between two applied
// turns: their answers are what the agents wait on. A proxy's run counts like a turn — a success
// resets the consecutive-failure count, a proxy that cannot run is a state-level failure — and its
// calls count against the caps.

import { isLiveState } from "../../protocol/fsm.js";
import { recordSuccessfulTurn } from "../../protocol/failure.js";
import { addressKey, threads } from "../../protocol/address.js";
import { isModelUnavailable, type ModelUnavailableError } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import { persistRecords, progress, type Session } from "../job/session.js";
import { runtimeOf } from "../turn/wake-runtime.js";
import { enforceJobCaps } from "./enforce-caps.js";
import { proxiesToRun, runProxy } from "./escalations.js";
import { failState } from "./fail-state.js";

export type ProxiesRun =
  | { kind: "none" | "ran" }
  /** The model is unavailable: the wake stops its turns and waits (api-wait.ts). */
  | { kind: "unavailable"; error: ModelUnavailableError };

export async function runProxies(s: Session): Promise<ProxiesRun> {
  let ran: "none" | "ran" = "none";
  for (const m of proxiesToRun(s)) {
    if (!isLiveState(s.job.state)) break;
    try {
      await runProxy(s, m);
      // A proxy's turn that ran is a successful turn in the state (failure.ts).
      s.job = recordSuccessfulTurn(s.job);
    } catch (error) {
      if (isModelUnavailable(error)) return { kind: "unavailable", error };
      // The runner's disk is full: the wake pauses the job (flow/disk-pause.ts).
      if (isDiskFull(error)) throw error;
      // A proxy that cannot run (its model refuses every request, say) is a state-level
      // failure like a lead's failed turn: retried, then FAILURE — never a job that throws
      // at every wake and so never ends (termination, docs/protocol.md#invariants).
      const reason = `proxy ${m.id}: ${((error as Error).message ?? String(error)).slice(0, 500)}`;
      progress(s, "PROXY", "ERROR", reason);
      await failState(s, reason, null, "");
    }
    await persistRecords(s, `cfa #${s.n}: ${s.job.state} proxy ${m.id}`);
    // Accounted in the commit just made: this proxy's responses are never asked for again
    // (other instances' turns may still be running: their entries stay).
    await runtimeOf(s).journal?.forget([
      addressKey({ agent: "proxy", thread: threads.escalation(m.id) }),
    ]);
    ran = "ran";
    // A proxy's calls count like any turn's: the caps after each, so none is overshot.
    await enforceJobCaps(s);
  }
  return { kind: ran };
}
