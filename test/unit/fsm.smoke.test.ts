import { describe, expect, it } from "vitest";
import { ACTION_TO_STATE, VALID_ACTIONS } from "../../src/protocol/fsm.js";

describe("state machine", () => {
  it("has exactly the twelve labelled edges of Diagram 1", () => {
    const edges = Object.values(VALID_ACTIONS).reduce((n, actions) => n + actions.length, 0);
    expect(edges).toBe(12);
    expect(ACTION_TO_STATE.REPLAN).toBe("PLAN");
  });
});
