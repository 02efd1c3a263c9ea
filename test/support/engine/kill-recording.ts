// The job the kill -9 test runs (shared by the killed process and the test that resumes it):
// every gate answered by the proxy, and EXECUTE's round of two workers in parallel — the round
// whose first apply once swept the other worker's transcript into its commit (so a crash could
// commit a turn that never happened).

import { createConversationModel } from "./conversation-model.js";
import { EXECUTE_STEPS, pass, worker, approveGate, proxiedToExecute } from "./recordings.js";
import { recording } from "./script.js";

export const KILL_CONFIG = "escalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
export const KILL_WORKERS = ["worker@dispatch:hello", "worker@dispatch:world"];

export function killRecording() {
  return recording({
    ...proxiedToExecute(),
    "project-lead@state:execute:1": EXECUTE_STEPS(),
    "worker@dispatch:hello": worker("hello.txt"),
    "worker@dispatch:world": worker("world.txt"),
    "verifier@verify:hello-1": pass(),
    "verifier@verify:world-1": pass(),
    "proxy@escalation:q3": approveGate(),
  });
}

export const killModel = createConversationModel;

/** Model calls the job makes from start to DONE (each scripted step is one call). */
export function killCalls(): number {
  return Object.values(killRecording().instances).reduce((n, steps) => n + steps.length, 0);
}
