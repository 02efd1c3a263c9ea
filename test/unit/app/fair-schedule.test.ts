import { describe, expect, it } from "vitest";
import { createFairQueue } from "../../../src/app/fair-queue.js";
import { createFairSchedule, type FairKey } from "../../../src/app/fair-schedule.js";

type Item = FairKey & { n: number };
const item = (source: string, job: string, priority: number, n: number): Item => ({
  source,
  job,
  priority,
  n,
});

function drain(
  schedule: ReturnType<typeof createFairSchedule<Item>>,
  blocked?: (s: string) => boolean,
) {
  const out: Item[] = [];
  for (let next = schedule.next(blocked); next !== undefined; next = schedule.next(blocked)) {
    out.push(next);
  }
  return out;
}

describe("the fair schedule, so a flood from one source delays no one else: sources take turns, then priority, then jobs", () => {
  it("a source with 1,000 items waiting and one with 1: the second's starts in the first round", () => {
    const s = createFairSchedule<Item>();
    for (let i = 0; i < 1000; i += 1) s.push(item("flood", `f${i}`, 2, i));
    s.push(item("legit", "j", 2, -1));
    const order = drain(s);
    expect(order.findIndex((i) => i.source === "legit")).toBe(1);
    expect(order).toHaveLength(1001);
  });

  it("sources alternate round robin while both have work", () => {
    const s = createFairSchedule<Item>();
    for (let i = 0; i < 3; i += 1) s.push(item("a", "x", 0, i));
    for (let i = 0; i < 3; i += 1) s.push(item("b", "y", 0, i));
    expect(
      drain(s)
        .map((i) => i.source)
        .join(""),
    ).toBe("ababab");
  });

  it("within a source the highest priority goes first, whatever arrived before it", () => {
    const s = createFairSchedule<Item>();
    s.push(item("a", "x", 0, 1)); // a 👀
    s.push(item("a", "y", 1, 2)); // a reply
    s.push(item("a", "z", 2, 3)); // a dispatch
    expect(drain(s).map((i) => i.n)).toEqual([3, 2, 1]);
  });

  it("within a priority, jobs take turns; within a job, first in first out", () => {
    const s = createFairSchedule<Item>();
    for (let i = 0; i < 3; i += 1) s.push(item("a", "busy", 0, i));
    s.push(item("a", "quiet", 0, 9));
    expect(drain(s).map((i) => `${i.job}:${i.n}`)).toEqual([
      "busy:0",
      "quiet:9",
      "busy:1",
      "busy:2",
    ]);
  });

  it("a blocked source is skipped, not dropped, and counts stay exact", () => {
    const s = createFairSchedule<Item>();
    s.push(item("a", "x", 0, 1));
    s.push(item("b", "y", 0, 2));
    expect(s.next((source) => source === "a")?.source).toBe("b");
    expect(s.size()).toBe(1);
    expect(s.sizeOf("a")).toBe(1);
    expect(s.next((source) => source === "a")).toBeUndefined();
    expect(s.next()?.source).toBe("a");
    expect(s.size()).toBe(0);
    expect(s.sources()).toBe(0);
  });
});

describe("the fair queue runs what the schedule picks within its limits", () => {
  it("one source never holds more than perSource slots, so another's work starts at once", async () => {
    const q = createFairQueue({ concurrency: 2, perSource: 1 });
    const gates: (() => void)[] = [];
    const started: string[] = [];
    const work = (name: string) => () =>
      new Promise<void>((resolve) => {
        started.push(name);
        gates.push(resolve);
      });
    const done = [
      ...Array.from({ length: 5 }, (_, i) =>
        q.add({ source: "flood", job: `f${i}`, priority: 0 }, work(`f${i}`)),
      ),
      q.add({ source: "legit", job: "j", priority: 0 }, work("legit")),
    ];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["f0", "legit"]);
    expect(q.running()).toBe(2);
    expect(q.sizeOf("flood")).toBe(5);
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await Promise.all(done);
    expect(started).toHaveLength(6);
    expect(q.running()).toBe(0);
    expect(q.waiting()).toBe(0);
  });

  it("a failing piece of work rejects its own promise and frees its slot", async () => {
    const q = createFairQueue({ concurrency: 1, perSource: 1 });
    const failed = q.add({ source: "a", job: "x", priority: 0 }, () =>
      Promise.reject(new Error("boom")),
    );
    const next = q.add({ source: "a", job: "x", priority: 0 }, () => Promise.resolve("ok"));
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ok");
  });
});
