// Seed 000 §6 routing validity and §13 fan-out cap: typed rejections before delivery, and the
// same refusal at reduction time.

import { describe, expect, it } from "vitest";
import { Soup, type Payload } from "../../../src/protocol/bus/index.js";
import { ORCH, msg } from "./world.js";

const spark = (n: number): Payload => ({
  kind: "deliver",
  to: { agent: "dev", thread: `dispatch:${n}` },
  content: msg(`task ${n}`),
});
const close = (n: number): Payload => ({ kind: "terminate", thread: `dispatch:${n}` });

/** The orchestrator, having sparked children 1..n, Running again. */
function withChildren(n: number, fanOutCap = 3): Soup {
  const soup = new Soup({ fanOutCap });
  soup.root(ORCH, msg("start"));
  soup.wake(ORCH);
  soup.endTurn(ORCH, {
    rule: "send-step",
    payloads: Array.from({ length: n }, (_, i) => spark(i + 1)),
  });
  soup.interrupt("job", msg("go on"));
  soup.wake(ORCH);
  return soup;
}

describe("fan-out cap (seed 000 §13)", () => {
  it("refuses a spark beyond the cap, counting sparks earlier in the same Send", () => {
    const soup = withChildren(2);
    expect(soup.check(ORCH, spark(3))).toBeNull();
    expect(soup.check(ORCH, spark(4), [spark(3)])).toMatchObject({ reason: "fan-out-cap" });
    expect(
      soup.checkAll(ORCH, [spark(3), spark(4), spark(5)]).map((r) => r?.reason ?? null),
    ).toEqual([null, "fan-out-cap", "fan-out-cap"]);
  });

  it("refuses at reduction time too: the fourth spark of a Send does not reduce", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("start"));
    soup.wake(ORCH);
    const result = soup.endTurn(ORCH, { rule: "send-step", payloads: [1, 2, 3, 4].map(spark) });
    expect(result.effects.filter((e) => e.kind === "spark")).toHaveLength(3);
    expect(result.effects.filter((e) => e.kind === "refused")).toEqual([
      expect.objectContaining({
        kind: "refused",
        rejection: expect.objectContaining({ reason: "fan-out-cap" }),
      }),
    ]);
    expect(soup.children("job")).toEqual(["dispatch:1", "dispatch:2", "dispatch:3"]);
  });

  it("frees a slot when a child is closed, even earlier in the same Send", () => {
    const soup = withChildren(3);
    expect(soup.check(ORCH, spark(4))).toMatchObject({ reason: "fan-out-cap" });
    expect(soup.check(ORCH, spark(4), [close(1)])).toBeNull();
    const result = soup.endTurn(ORCH, { rule: "send-step", payloads: [close(1), spark(4)] });
    expect(result.effects.map((e) => e.kind)).toEqual(["release", "spark"]);
    expect(result.effects[0]).toMatchObject({ mode: "merge", parent: "job" });
    expect(soup.isTerminated("dispatch:1")).toBe(true);
  });

  it("is a constructor option", () => {
    const soup = withChildren(0, 1);
    expect(soup.checkAll(ORCH, [spark(1), spark(2)]).map((r) => r?.reason ?? null)).toEqual([
      null,
      "fan-out-cap",
    ]);
  });
});

describe("typed rejections (seed 000 §6)", () => {
  it("not-visible: siblings do not see each other", () => {
    const soup = withChildren(2);
    const one = { agent: "dev", thread: "dispatch:1" };
    const two = { agent: "dev", thread: "dispatch:2" };
    expect(soup.check(one, { kind: "deliver", to: two, content: msg("hi") })).toMatchObject({
      reason: "not-visible",
    });
    expect(soup.check(one, { kind: "deliver", to: ORCH, content: msg("done") })).toBeNull();
    expect(soup.check(ORCH, { kind: "deliver", to: one, content: msg("more") })).toBeNull();
  });

  it("thread-exists: a spark never reuses a thread, even to another agent", () => {
    const soup = withChildren(1);
    const payload: Payload = {
      kind: "deliver",
      to: { agent: "qa", thread: "dispatch:1" },
      content: msg("x"),
    };
    expect(soup.check(ORCH, payload)).toMatchObject({ reason: "thread-exists" });
    expect(
      soup.check(ORCH, { ...payload, to: { agent: "qa", thread: "dispatch:9" } }, [
        { kind: "deliver", to: { agent: "dev", thread: "dispatch:9" }, content: msg("y") },
      ]),
    ).toMatchObject({ reason: "thread-exists" });
    // The same new instance may be addressed twice in one Send: the second is a [send].
    expect(soup.check(ORCH, spark(9), [spark(9)])).toBeNull();
  });

  it("not-parent: only a thread's parent may close it", () => {
    const soup = withChildren(1);
    const child = { agent: "dev", thread: "dispatch:1" };
    expect(soup.check(child, { kind: "terminate", thread: "job" })).toMatchObject({
      reason: "not-parent",
    });
    expect(soup.check(ORCH, close(1))).toBeNull();
  });

  it("terminated: nothing may address a terminated thread", () => {
    const soup = withChildren(1);
    soup.endTurn(ORCH, { rule: "send-step", payloads: [close(1)] });
    expect(soup.check(ORCH, spark(1))).toMatchObject({ reason: "terminated" });
    expect(soup.check(ORCH, close(1))).toMatchObject({ reason: "terminated" });
    // A pending payload that will itself be refused changes nothing for the ones after it.
    expect(soup.check(ORCH, spark(2), [close(2)])).toBeNull();
  });
});
