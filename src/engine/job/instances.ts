// Who an instance is, from its address: its role, its workspace, the task it works on.

import type { Address } from "../../protocol/address.js";
import { isLiveState, type LiveState } from "../../protocol/fsm.js";
import { PHASES } from "../../skills/phases.js";
import type { RoleName } from "../../agents/roles/index.js";
import type { JobRecords } from "./session.js";
import { threads } from "../../protocol/address.js";

export function roleOf(a: Address): RoleName {
  switch (a.agent) {
    case "intent-lead":
    case "project-lead":
    case "worker":
    case "verifier":
    case "proxy":
      return a.agent;
    default:
      throw new Error(`cfa/engine: no role for agent "${a.agent}"`);
  }
}

/** The current state's lead: the instance on the state's thread for this entry. */
export function currentLead(s: JobRecords): Address | null {
  if (!isLiveState(s.job.state)) return null;
  return leadAddress(s.job.state, s.job.entry);
}

export function leadAddress(state: LiveState, entry: number): Address {
  return { agent: PHASES[state].lead, thread: threads.state(state, entry) };
}

export const isLeadThread = (thread: string) => thread.startsWith("state:");

/** `dispatch:<task>` → task id; null for other threads. */
export function taskOfThread(thread: string): string | null {
  return thread.startsWith("dispatch:") ? thread.slice("dispatch:".length) : null;
}
