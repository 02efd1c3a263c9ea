import { describe, expect, it } from "vitest";
import { stateEntries } from "../../../src/cli/inspect-render.js";
import type { TransitionEntry } from "../../../src/protocol/job-record.js";
import { historyOf } from "../../support/protocol/walks.js";

const entry = (edge: ReturnType<typeof historyOf>[number]): TransitionEntry => ({
  ...edge,
  at: "2026-01-01T00:00:00.000Z",
  by: "x",
  reason: "r",
});

describe("stateEntries", () => {
  it("numbers each entry into a state as the engine numbers its lead's thread", () => {
    const history = historyOf(
      "APPROVED_INTENT",
      "APPROVED_PLAN",
      "REPLAN",
      "REALIGN",
      "APPROVED_INTENT",
      "WITHDRAW",
    );
    const entries = stateEntries(history.map(entry));
    expect(entries.map((e) => [e.state, e.entry, e.exit?.action])).toEqual([
      ["INTENT", 1, "APPROVED_INTENT"],
      ["PLAN", 1, "APPROVED_PLAN"],
      ["EXECUTE", 1, "REPLAN"],
      ["PLAN", 2, "REALIGN"],
      ["INTENT", 2, "APPROVED_INTENT"],
      ["PLAN", 3, "WITHDRAW"],
    ]);
  });

  it("leaves the current entry open", () => {
    expect(stateEntries([])).toEqual([{ state: "INTENT", entry: 1 }]);
  });
});
