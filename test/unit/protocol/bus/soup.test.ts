// The soup as a value: clone, canonical molecules, equality; the scheduler's replay; the
// withdraw marker.

import { describe, expect, it } from "vitest";
import {
  Scheduler,
  Soup,
  isWithdrawAnswer,
  mulberry32,
  parseWithdrawAnswer,
  withdrawAnswer,
} from "../../../../src/protocol/bus/index.js";
import { ORCH, drive, msg, randomBehaviour } from "../../../support/protocol/bus-world.js";

describe("Soup values", () => {
  it("clone() is independent of the original, mailboxes included", () => {
    const world = drive({ seed: 11, steps: 80 });
    const soup = world.soup;
    const copy = soup.clone();
    expect(copy.equals(soup)).toBe(true);
    const before = soup.snapshot();
    new Scheduler(copy, { seed: 3, behaviour: randomBehaviour() }).run(60);
    copy.interrupt(ORCH.thread, msg("only in the copy"));
    expect(soup.snapshot()).toEqual(before);
    expect(copy.equals(soup)).toBe(false);
  });

  it("molecules() hands out copies: a caller's snapshot does not change with the soup", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("one"));
    const mailbox = soup.molecules().find((m) => m.kind === "Mailbox")!;
    soup.interrupt(ORCH.thread, msg("x"));
    soup.wake(ORCH);
    soup.endTurn(ORCH, { rule: "nosend-step" });
    expect(mailbox).toEqual({ kind: "Mailbox", a: ORCH, queue: [msg("one")] });
  });

  it("lists molecules in a canonical order, whatever the order they arrived in", () => {
    const a = new Soup();
    a.root(ORCH);
    a.root({ agent: "x", thread: "other" });
    const b = new Soup();
    b.root({ agent: "x", thread: "other" });
    b.root(ORCH);
    expect(a.molecules()).toEqual(b.molecules());
    expect(a.equals(b)).toBe(true);
    expect(a.molecules().map((m) => m.kind)).toEqual(["Idle", "Idle", "Mailbox", "Mailbox"]);
  });

  it("Soup.from() rebuilds a soup equal to its snapshot", () => {
    const world = drive({ seed: 5, steps: 120, externals: true });
    const rebuilt = Soup.from(world.soup.snapshot());
    expect(rebuilt.equals(world.soup)).toBe(true);
    expect(
      rebuilt
        .enabled()
        .map((r) => r.rule)
        .sort(),
    ).toEqual(
      world.soup
        .enabled()
        .map((r) => r.rule)
        .sort(),
    );
  });
});

describe("Scheduler", () => {
  it("replays the exact interleaving for a given seed", () => {
    const trace = (seed: number) =>
      drive({ seed, steps: 150, externals: true }).trace.map((t) => [
        t.fired.redex.rule,
        JSON.stringify(t.fired.result),
      ]);
    expect(trace(42)).toEqual(trace(42));
    expect(trace(42)).not.toEqual(trace(43));
  });

  it("mulberry32 is deterministic and uniform enough", () => {
    const r = mulberry32(1);
    const xs = Array.from({ length: 1000 }, () => r());
    expect(xs.slice(0, 3)).toEqual([mulberry32(1)(), ...xs.slice(1, 3)]);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
  });

  it("stops at rest and reports quiescence", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("start"));
    const quiet = (r: { rule: string }) => r.rule !== "send-step" && r.rule !== "ask-step";
    const result = new Scheduler(soup, { seed: 1, behaviour: randomBehaviour(), allow: quiet }).run(
      100,
    );
    expect(result).toEqual({ fired: 2, quiescent: true }); // [wake], [nosend-step]
    expect(soup.isQuiescent()).toBe(true);
  });
});

describe("withdraw marker: a withdrawal rides on the proxy's answer", () => {
  it("recognises [WITHDRAW]\\n<reason> and nothing else", () => {
    expect(parseWithdrawAnswer("[WITHDRAW]\nthe human abandoned it")).toEqual({
      reason: "the human abandoned it",
    });
    expect(parseWithdrawAnswer("[WITHDRAW]\r\nno")).toEqual({ reason: "no" });
    expect(parseWithdrawAnswer("[WITHDRAW]")).toEqual({ reason: "" });
    expect(isWithdrawAnswer("[WITHDRAWN]\nx")).toBe(false);
    expect(isWithdrawAnswer("[WITHDRAW] x")).toBe(false);
    expect(isWithdrawAnswer("please [WITHDRAW]\nx")).toBe(false);
    expect(isWithdrawAnswer(withdrawAnswer("because"))).toBe(true);
  });
});
