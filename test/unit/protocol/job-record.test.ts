// The state record (docs/protocol.md#persistence) is persisted and re-read on every wake, so
// it must serialise the same way every time and refuse a damaged file with a useful message.

import { describe, expect, it } from "vitest";
import { RecordError } from "../../../src/protocol/errors.js";
import {
  newJobRecord,
  parseJobRecord,
  serializeJobRecord,
  type JobRecord,
} from "../../../src/protocol/job-record.js";
import { transition } from "../../../src/protocol/transition.js";
import { givenJob, meta } from "../../support/protocol/given.js";

/** The same record with every object's keys inserted in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    );
  }
  return value;
}

const parseError = (text: string, where?: string): RecordError => {
  try {
    parseJobRecord(text, where);
  } catch (error) {
    expect(error).toBeInstanceOf(RecordError);
    return error as RecordError;
  }
  throw new Error("expected parseJobRecord to throw");
};

describe("job record", () => {
  it("starts in INTENT, entry 1, with nothing spent", () => {
    const job = newJobRecord({ job: 3, title: "t", at: "2026-01-01T00:00:00.000Z" });
    expect(job).toMatchObject({ v: 1, job: 3, state: "INTENT", entry: 1, history: [] });
    expect(job).toMatchObject({ backtracks: 0, failures: 0, nudges: 0, turns: 0, costUsd: 0 });
  });

  it("reads a record written before nudges were counted as having none", () => {
    const job = JSON.parse(serializeJobRecord(givenJob("PLAN", { nudges: 2 }))) as Record<
      string,
      unknown
    >;
    const { nudges: _n, ...older } = job;
    expect(parseJobRecord(JSON.stringify(older)).nudges).toBe(0);
  });

  it("serialises deterministically whatever order its keys were inserted in", () => {
    const job = transition(givenJob("EXECUTE"), "REPLAN", meta());
    const shuffled = reversedKeys(job) as JobRecord;
    expect(Object.keys(shuffled)[0]).not.toBe(Object.keys(job)[0]);
    expect(serializeJobRecord(shuffled)).toBe(serializeJobRecord(job));
    expect(serializeJobRecord(job).endsWith("}\n")).toBe(true);
  });

  it("round-trips through parse", () => {
    const job = transition(givenJob("PLAN"), "REALIGN", meta());
    const text = serializeJobRecord(job);
    expect(parseJobRecord(text)).toEqual(job);
    expect(serializeJobRecord(parseJobRecord(text))).toBe(text);
  });

  it("names the file when the text is not JSON", () => {
    const error = parseError("{ not json", ".cfa/jobs/7/state.json");
    expect(error.name).toBe("RecordError");
    expect(error.where).toBe(".cfa/jobs/7/state.json");
    expect(error.message).toMatch(/^cfa\/protocol: \.cfa\/jobs\/7\/state\.json: not valid JSON/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("names the field that is wrong", () => {
    const job = JSON.parse(serializeJobRecord(givenJob("PLAN"))) as Record<string, unknown>;
    expect(parseError(JSON.stringify({ ...job, state: "DRAFT" })).message).toMatch(/state/);
    expect(parseError(JSON.stringify({ ...job, backtracks: -1 })).message).toMatch(/backtracks/);
    const { title: _t, ...untitled } = job;
    expect(parseError(JSON.stringify(untitled)).message).toMatch(/title/);
    const history = [{ ...(job.history as object[])[0], action: "SKIP" }];
    expect(parseError(JSON.stringify({ ...job, history })).message).toMatch(/history\[0\]\.action/);
  });

  it("refuses a record of another version", () => {
    const job = JSON.parse(serializeJobRecord(givenJob("INTENT"))) as Record<string, unknown>;
    expect(parseError(JSON.stringify({ ...job, v: 2 })).message).toMatch(/\bv\b/);
  });
});
