// The skill contract (docs/protocol.md#skill-contract): a skill's permitted outcomes are
// exactly the actions leaving its state, except FAILURE, which only the orchestrator emits.

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

describe("allowedOutcomes", () => {
  it.each(LIVE_STATES)("lists exactly the skill contract's outcomes in %s", (state) => {
    expect([...allowedOutcomes(state)].sort()).toEqual([...PERMITTED[state]].sort());
  });

  it.each(LIVE_STATES)("never offers FAILURE to a skill in %s", (state) => {
    expect(allowedOutcomes(state)).not.toContain("FAILURE");
  });
});
