// The cost gate (src/engine/cost-gate.ts): parallel calls never take the spend more than one
// call past the cap.

import { describe, expect, it } from "vitest";
import { CostGate } from "../../../../src/engine/turn/cost-gate.js";

describe("CostGate", () => {
  it("admits a lone call while the spend is within the cap, refuses once it is over", async () => {
    const gate = new CostGate();
    expect(await gate.admit(() => 10, 10)).toEqual({ kind: "admit", slot: 1 });
    gate.settle(1, 2);
    expect(await gate.admit(() => 12, 10)).toEqual({ kind: "over" });
  });

  it("without an estimate yet, calls go one at a time", async () => {
    const gate = new CostGate();
    const first = await gate.admit(() => 0, 100);
    let second: unknown = null;
    const waiting = gate.admit(() => 0, 100).then((a) => (second = a));
    await new Promise((r) => setImmediate(r));
    expect(second).toBeNull();
    expect(first.kind).toBe("admit");
    if (first.kind === "admit") gate.settle(first.slot, 1);
    await waiting;
    expect(second).toMatchObject({ kind: "admit" });
  });

  it("with an estimate, calls run together only while all of them fit under the cap", async () => {
    const gate = new CostGate();
    const a = await gate.admit(() => 0, 10);
    if (a.kind === "admit") gate.settle(a.slot, 3); // largest call seen: 3
    let spent = 3;
    // 3 + 3 ≤ 10 and 3 + 3 + 3 ≤ 10: two in flight; a third would make 12 > 10 and waits.
    const b = await gate.admit(() => spent, 10);
    const c = await gate.admit(() => spent, 10);
    expect([b.kind, c.kind]).toEqual(["admit", "admit"]);
    let d: { kind: string } | null = null;
    const pending = gate.admit(() => spent, 10).then((x) => (d = x));
    await new Promise((r) => setImmediate(r));
    expect(d).toBeNull();
    spent = 6;
    if (b.kind === "admit") gate.settle(b.slot, 3);
    // 6 spent + 3 in flight + 3 = 12 > 10: still waits.
    await new Promise((r) => setImmediate(r));
    expect(d).toBeNull();
    spent = 9;
    if (c.kind === "admit") gate.settle(c.slot, 3);
    await pending;
    // Alone, within the cap (9 ≤ 10): the one call that may end over it.
    expect(d).toMatchObject({ kind: "admit" });
    expect(gate.busy).toBe(1);
  });

  it("a failed call frees its slot without teaching an estimate", async () => {
    const gate = new CostGate();
    const a = await gate.admit(() => 0, 10);
    if (a.kind === "admit") gate.settle(a.slot);
    expect(gate.busy).toBe(0);
    const b = await gate.admit(() => 0, 10);
    let c: unknown = null;
    void gate.admit(() => 0, 10).then((x) => (c = x));
    await new Promise((r) => setImmediate(r));
    expect(b.kind).toBe("admit");
    expect(c).toBeNull(); // still no estimate: one at a time
  });
});
