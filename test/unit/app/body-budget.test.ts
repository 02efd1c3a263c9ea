import { describe, expect, it } from "vitest";
import { createBodyBudget } from "../../../src/app/body-budget.js";

describe("the budget of unverified bodies evicts the oldest, never the newcomer", () => {
  it("bytes past the budget evict the oldest bodies until it fits", () => {
    const budget = createBodyBudget({ maxBytes: 10, maxBodies: 100 });
    const evicted: string[] = [];
    const a = budget.admit(() => evicted.push("a"));
    const b = budget.admit(() => evicted.push("b"));
    a.take(4);
    b.take(4);
    const c = budget.admit(() => evicted.push("c"));
    c.take(5);
    expect(evicted).toEqual(["a"]);
    expect(budget.heldBytes()).toBe(9);
    a.take(100); // an evicted lease counts nothing more
    expect(budget.heldBytes()).toBe(9);
    c.release();
    c.release();
    expect(budget.heldBytes()).toBe(4);
    expect(budget.evicted()).toBe(1);
  });

  it("more bodies than allowed evict the oldest at admission", () => {
    const budget = createBodyBudget({ maxBytes: 1000, maxBodies: 2 });
    const evicted: number[] = [];
    for (let i = 0; i < 5; i += 1) budget.admit(() => evicted.push(i));
    expect(evicted).toEqual([0, 1, 2]);
    expect(budget.bodies()).toBe(2);
  });
});
