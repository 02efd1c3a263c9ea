import { describe, expect, it } from "vitest";
import type { ProgressLine } from "../../../src/engine/index.js";
import {
  clockTime,
  createLiveLog,
  formatLogLine,
  oneLine,
  shortWho,
} from "../../../src/cli/live-log.js";

const line = (over: Partial<ProgressLine>): ProgressLine => ({
  at: "2026-03-02T12:30:01.000Z",
  job: 1,
  who: "INTENT",
  event: "START",
  detail: "intent-lead sparked on state:intent:1",
  ...over,
});

describe("formatLogLine (the live log)", () => {
  it("prints job, clock time, who and event in columns, then the detail", () => {
    expect(formatLogLine(line({}), { timeZone: "UTC" })).toBe(
      "[#1] 12:30:01 INTENT        START     intent-lead sparked on state:intent:1",
    );
  });

  it("keeps a long event readable and puts the detail on one line", () => {
    const text = formatLogLine(
      line({ who: "PLAN", event: "APPROVED_INTENT", detail: "INTENT → PLAN:\n  approved\n" }),
      { timeZone: "UTC" },
    );
    expect(text).toBe("[#1] 12:30:01 PLAN          APPROVED_INTENT INTENT → PLAN: approved");
  });

  it("shows the clock in the given time zone", () => {
    expect(clockTime("2026-03-02T12:30:01.000Z", "Asia/Tokyo")).toBe("21:30:01");
    expect(clockTime("not a time")).toBe("--:--:--");
  });

  it("cuts a long detail with an ellipsis", () => {
    expect(oneLine("a ".repeat(300), 20)).toBe("a a a a a a a a a a…");
  });
});

describe("shortWho", () => {
  it.each([
    ["intent-lead@state:intent:1", "intent-lead"],
    ["project-lead@state:plan:2", "project-lead#2"],
    ["worker@dispatch:camel-case", "worker:camel-case"],
    ["verifier@verify:camel-case-2", "verifier:camel-case"],
    ["proxy@escalation:q3", "proxy:q3"],
    ["GATE", "GATE"],
    ["cfa@job", "cfa@job"],
  ])("%s → %s", (who, short) => {
    expect(shortWho(who)).toBe(short);
  });
});

describe("createLiveLog", () => {
  const lines: ProgressLine[] = [
    line({ who: "EXECUTE", event: "START", detail: "project-lead sparked" }),
    line({ who: "EXECUTE", event: "DISPATCH", detail: "task a on cfa/1-a", verbose: true }),
    line({ who: "EXECUTE", event: "DISPATCH", detail: "task b-2 on cfa/1-b-2", verbose: true }),
    line({ who: "worker", event: "SPARK", detail: "worker@dispatch:a", verbose: true }),
    line({ who: "project-lead@state:execute:1", event: "TURN", detail: "turn 1" }),
    line({ who: "worker@dispatch:a", event: "TURN", detail: "turn 1", verbose: true }),
    line({ who: "EXECUTE", event: "MERGED", detail: "task a into cfa/1" }),
  ];
  const run = (verbose: boolean) => {
    const log = createLiveLog({ verbose, timeZone: "UTC" });
    return [...lines.flatMap((l) => log.push(l)), ...log.end()];
  };

  it("normal mode hides per-task lines and folds a burst of dispatches into one", () => {
    const out = run(false);
    expect(out).toEqual([
      "[#1] 12:30:01 EXECUTE       START     project-lead sparked",
      "[#1] 12:30:01 EXECUTE       DISPATCH  2 tasks in parallel: a, b-2",
      "[#1] 12:30:01 project-lead  TURN      turn 1",
      "[#1] 12:30:01 EXECUTE       MERGED    task a into cfa/1",
    ]);
  });

  it("verbose mode shows every line as it comes", () => {
    const out = run(true);
    expect(out).toHaveLength(lines.length);
    expect(out[1]).toContain("DISPATCH  task a on cfa/1-a");
    expect(out[5]).toContain("worker:a      TURN      turn 1");
  });

  it("a dispatch held at the end of a run is still printed", () => {
    const log = createLiveLog({ verbose: false, timeZone: "UTC" });
    expect(log.push(lines[1]!)).toEqual([]);
    expect(log.end()).toEqual(["[#1] 12:30:01 EXECUTE       DISPATCH  1 task: a"]);
    expect(log.end()).toEqual([]);
  });
});
