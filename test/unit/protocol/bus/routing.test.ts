// Routing locality (docs/protocol.md#dispatch) and the fan-out cap: typed rejections before
// delivery, the same refusal at reduction time, and a spark beyond the cap that waits for a
// free slot.

import { describe, expect, it } from "vitest";
import { Soup, type Payload } from "../../../../src/protocol/bus/index.js";
import { ORCH, msg } from "../../../support/protocol/bus-world.js";

const spark = (n: number): Payload => ({
  kind: "deliver",
  to: { agent: "dev", thread: `dispatch:${n}` },
  content: msg(`task ${n}`),
});
const close = (n: number): Payload => ({ kind: "terminate", thread: `dispatch:${n}` });
const x6 = msg("task 6");

/** The orchestrator, having sparked children 1..n, Running again. */
function withChildren(n: number, fanOutCap = 3): Soup {
  const soup = new Soup({ fanOutCap });
  soup.root(ORCH, msg("start"));
  soup.wake(ORCH);
  sendThenRun(
    soup,
    Array.from({ length: n }, (_, i) => spark(i + 1)),
  );
  return soup;
}

/** The orchestrator's turn ends sending `payloads`; woken again, it is Running. */
function sendThenRun(soup: Soup, payloads: Payload[]): void {
  soup.endTurn(ORCH, { rule: "send-step", payloads });
  soup.interrupt("job", msg("go on"));
  soup.wake(ORCH);
}

describe("fan-out cap: a spark beyond it waits", () => {
  it("says which sparks will wait, counting sparks earlier in the same Send", () => {
    const soup = withChildren(2);
    expect(soup.check(ORCH, spark(3))).toBeNull();
    expect(soup.blocks(ORCH, spark(3))).toBe(false);
    expect(soup.check(ORCH, spark(4), [spark(3)])).toBeNull();
    expect(soup.blocks(ORCH, spark(4), [spark(3)])).toBe(true);
    expect(soup.blocks(ORCH, spark(5), [spark(3), spark(4)])).toBe(true);
  });

  it("[send-block]: the fourth spark of a Send waits, its sender goes back to Idle, nothing is refused", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("start"));
    soup.wake(ORCH);
    const result = soup.endTurn(ORCH, { rule: "send-step", payloads: [1, 2, 3, 4].map(spark) });
    expect(result.effects.map((e) => e.kind)).toEqual(["spark", "spark", "spark", "blocked"]);
    expect(result.effects[3]).toMatchObject({ to: { thread: "dispatch:4" }, queued: 1 });
    expect(result.events.map((e) => e.type)).toEqual([
      "turn-end",
      "spark",
      "spark",
      "spark",
      "block",
      "send-empty",
    ]);
    expect(soup.children("job")).toEqual(["dispatch:1", "dispatch:2", "dispatch:3"]);
    // Not wedged: the orchestrator is Idle, can run again and close a child.
    expect(soup.stateOf(ORCH)).toBe("Idle");
    expect(soup.blockedUnder("job").map((b) => b.to.thread)).toEqual(["dispatch:4"]);
  });

  it("[unblock]: closing a child starts the oldest waiting spark, as a spark would", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("start"));
    soup.wake(ORCH);
    sendThenRun(soup, [1, 2, 3, 4, 5].map(spark));
    const result = soup.endTurn(ORCH, { rule: "send-step", payloads: [close(2)] });
    expect(result.effects.map((e) => e.kind)).toEqual(["release", "spark"]);
    expect(result.effects[1]).toMatchObject({
      kind: "spark",
      a: { agent: "dev", thread: "dispatch:4" },
      parent: "job",
      from: ORCH,
    });
    expect(result.events.map((e) => e.type)).toContain("unblock");
    expect(soup.children("job")).toEqual(["dispatch:1", "dispatch:2", "dispatch:3", "dispatch:4"]);
    expect(soup.mailbox({ agent: "dev", thread: "dispatch:4" })).toEqual([
      { ...msg("task 4"), from: ORCH },
    ]);
    expect(soup.visibleFrom(ORCH)).toContainEqual({ agent: "dev", thread: "dispatch:4" });
    expect(soup.blockedUnder("job").map((b) => b.to.thread)).toEqual(["dispatch:5"]);
  });

  it("first come, first served: a new spark waits behind older ones even when a slot is free in its Send", () => {
    const soup = withChildren(3);
    sendThenRun(soup, [spark(4)]);
    expect(soup.blocks(ORCH, spark(5), [close(1)])).toBe(true);
    const result = soup.endTurn(ORCH, { rule: "send-step", payloads: [close(1), spark(5)] });
    const started = result.effects.flatMap((e) => (e.kind === "spark" ? [e.a.thread] : []));
    expect(started).toEqual(["dispatch:4"]);
    expect(soup.blockedUnder("job").map((b) => b.to.thread)).toEqual(["dispatch:5"]);
  });

  it("blocked: a waiting spark takes no mail and cannot be closed before it starts", () => {
    const soup = withChildren(3);
    sendThenRun(soup, [spark(4)]);
    expect(soup.check(ORCH, spark(4))).toMatchObject({ reason: "blocked" });
    expect(soup.check(ORCH, close(4))).toMatchObject({ reason: "blocked" });
    // A spark that will wait cannot be written to in the same Send either.
    expect(soup.check(ORCH, spark(6), [spark(6)])).toMatchObject({ reason: "blocked" });
    const qa: Payload = { kind: "deliver", to: { agent: "qa", thread: "dispatch:6" }, content: x6 };
    expect(soup.check(ORCH, qa)).toBeNull();
  });

  it("[term-blocked]: a withdrawn parent's waiting sparks never start, and their threads stay closed", () => {
    const soup = withChildren(3);
    soup.endTurn(ORCH, { rule: "send-step", payloads: [spark(4)] });
    const result = soup.terminate("job", "drop");
    expect(result.effects.filter((e) => e.kind === "blocked-dropped")).toEqual([
      { kind: "blocked-dropped", from: ORCH, to: { agent: "dev", thread: "dispatch:4" } },
    ]);
    expect(result.effects.some((e) => e.kind === "spark")).toBe(false);
    expect(soup.blockedUnder("job")).toEqual([]);
    expect(soup.isTerminated("dispatch:4")).toBe(true);
    expect(soup.molecules()).toEqual([]);
  });

  it("is a constructor option", () => {
    const soup = withChildren(0, 1);
    expect(soup.checkAll(ORCH, [spark(1), spark(2)]).map((r) => r?.reason ?? null)).toEqual([
      null,
      null,
    ]);
    expect(soup.blocks(ORCH, spark(2), [spark(1)])).toBe(true);
  });
});

describe("typed rejections: a send reaches only whom its sender sees", () => {
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
