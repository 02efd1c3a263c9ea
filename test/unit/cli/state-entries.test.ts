import { describe, expect, it } from "vitest";
import { stateEntries } from "../../../src/cli/inspect-render.js";
import type { TransitionEntry } from "../../../src/protocol/job-record.js";

const t = (from: string, action: string, to: string): TransitionEntry =>
  ({ from, action, to, at: "2026-01-01T00:00:00.000Z", by: "x", reason: "r" }) as TransitionEntry;

describe("stateEntries", () => {
  it("numbers each entry into a state as the engine numbers its lead's thread", () => {
    const entries = stateEntries([
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "APPROVED_PLAN", "EXECUTE"),
      t("EXECUTE", "REPLAN", "PLAN"),
      t("PLAN", "REALIGN", "INTENT"),
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "WITHDRAW", "WITHDRAWN"),
    ]);
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
