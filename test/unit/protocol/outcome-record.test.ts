// The outcome record (docs/protocol.md#skill-contract) is untrusted text. Every way it can be
// wrong is a contract violation returned as a value, so the engine can count a state-level
// failure.

import { describe, expect, it } from "vitest";
import { parseOutcomeRecord } from "../../../src/protocol/outcome-record.js";

const violation = (text: string, state: "INTENT" | "PLAN" | "EXECUTE" = "EXECUTE") => {
  let result: ReturnType<typeof parseOutcomeRecord> | undefined;
  expect(() => (result = parseOutcomeRecord(text, state))).not.toThrow();
  expect(result?.ok).toBe(false);
  return result?.ok === false ? result.violation : "";
};

describe("parseOutcomeRecord", () => {
  it("accepts a permitted outcome with a reason", () => {
    expect(
      parseOutcomeRecord('{"outcome":"REPLAN","reason":"the API changed"}', "EXECUTE"),
    ).toEqual({
      ok: true,
      record: { outcome: "REPLAN", reason: "the API changed" },
    });
  });

  it("returns bad JSON as a violation", () => {
    expect(violation("{outcome: APPROVED_WORK")).toMatch(/not valid JSON/);
    expect(violation("")).toMatch(/not valid JSON/);
  });

  it("returns JSON that is not an object as a violation", () => {
    expect(violation("null")).toMatch(/malformed/);
    expect(violation('["APPROVED_WORK","done"]')).toMatch(/malformed/);
  });

  it("returns a missing or blank reason as a violation naming the field", () => {
    expect(violation('{"outcome":"APPROVED_WORK"}')).toMatch(/reason/);
    expect(violation('{"outcome":"APPROVED_WORK","reason":"   "}')).toMatch(/reason/);
  });

  it("returns an extra field as a violation naming it", () => {
    expect(violation('{"outcome":"APPROVED_WORK","reason":"ok","confidence":0.9}')).toMatch(
      /confidence/,
    );
    expect(violation('{"outcome":"APPROVED_WORK","reason":"ok","__proto__":{"x":1}}')).toMatch(
      /__proto__/,
    );
  });

  it("returns an unknown outcome name as a violation naming the field", () => {
    expect(violation('{"outcome":"PENDING","reason":"still working"}')).toMatch(/outcome/);
    expect(violation('{"outcome":"approved_work","reason":"ok"}')).toMatch(/outcome/);
  });

  it("returns an outcome not permitted in the state as a violation listing what is", () => {
    const message = violation('{"outcome":"REPLAN","reason":"hmm"}', "PLAN");
    expect(message).toContain("REPLAN is not permitted in PLAN");
    expect(message).toContain("APPROVED_PLAN");
    expect(violation('{"outcome":"APPROVED_WORK","reason":"early"}', "INTENT")).toContain(
      "not permitted in INTENT",
    );
  });

  it("returns FAILURE from a skill as a violation: only the orchestrator emits it", () => {
    expect(violation('{"outcome":"FAILURE","reason":"I give up"}')).toContain(
      "FAILURE is not permitted in EXECUTE",
    );
  });
});
