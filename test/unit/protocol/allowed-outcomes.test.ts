// Seed 000 §4: a skill's permitted outcomes are exactly the actions leaving its state,
// except FAILURE, which only the orchestrator emits.

import { describe, expect, it } from "vitest";
import {
  LIVE_STATES,
  allowedOutcomes,
  type Action,
  type LiveState,
} from "../../../src/protocol/fsm.js";

const PERMITTED: Record<LiveState, readonly Action[]> = {
  INTENT: ["APPROVED_INTENT", "WITHDRAW"],
  PLAN: ["APPROVED_PLAN", "WITHDRAW", "REALIGN"],
  EXECUTE: ["APPROVED_WORK", "WITHDRAW", "REALIGN", "REPLAN"],
};

describe("allowedOutcomes (seed 000 §4)", () => {
  it.each(LIVE_STATES)("lists exactly §4's outcomes in %s", (state) => {
    expect([...allowedOutcomes(state)].sort()).toEqual([...PERMITTED[state]].sort());
  });

  it.each(LIVE_STATES)("never offers FAILURE to a skill in %s", (state) => {
    expect(allowedOutcomes(state)).not.toContain("FAILURE");
  });
});
