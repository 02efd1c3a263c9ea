// A folded task turn (one a task's own workflow run made) on the lead's bus, over the real
// soup: the worker's Run takes the message its task run took and ends with the record's sends,
// so its parent finds the reply in its mailbox as if the worker had run in the lead's run; a
// turn with nothing waiting, a send the bus would refuse, or a question changes nothing at
// all.

import { describe, expect, it } from "vitest";
import { deliverFoldedTurn } from "../../../../src/engine/fanout/deliver-folded-turn.js";
import { addressKey } from "../../../../src/protocol/address.js";
import { Soup } from "../../../../src/protocol/bus/index.js";
import { ORCH, msg } from "../../../support/protocol/bus-world.js";

const WORKER = { agent: "worker", thread: "dispatch:api" };
const SIBLING = { agent: "worker", thread: "dispatch:db" };

/** A send of the worker's to its parent (the lead's orchestrator). */
const toParent = (kind: "reply" | "ask", text: string) => ({ to: addressKey(ORCH), kind, text });
/** The escalation a question of the worker's opens. */
const Q7 = { id: "q7", policy: "always" } as const;

/** The parent dispatched api and db and is Idle; api's worker has its task waiting. */
function dispatched(): Soup {
  const soup = new Soup();
  soup.root(ORCH, msg("start"));
  soup.wake(ORCH);
  soup.endTurn(ORCH, {
    rule: "send-step",
    payloads: [
      { kind: "deliver", to: WORKER, content: { kind: "task", text: "Build the API" } },
      { kind: "deliver", to: SIBLING, content: { kind: "task", text: "Build the DB" } },
    ],
  });
  return soup;
}

describe("a folded task turn on the lead's bus", () => {
  it("runs the worker on its waiting task and delivers its reply to its parent, once", () => {
    const soup = dispatched();
    const done = deliverFoldedTurn(soup, WORKER, { sends: [toParent("reply", "API built")] });
    expect(done.ok).toBe(true);
    expect(done.ok && done.events.length).toBeGreaterThan(0);
    expect(soup.mailbox(ORCH)).toEqual([
      expect.objectContaining({ kind: "reply", text: "API built", from: WORKER }),
    ]);
    expect(soup.stateOf(WORKER)).toBe("Idle");
    expect(soup.mailbox(WORKER)).toEqual([]);
    // The same record again: nothing is waiting for it any more.
    expect(deliverFoldedTurn(soup, WORKER, { sends: [] })).toEqual({
      ok: false,
      why: "its worker has no message waiting in the lead's bus",
    });
  });

  it.each([
    [
      "a reply to a sibling task",
      [{ to: addressKey(SIBLING), kind: "reply" as const, text: "x" }],
      /refuses \(not-visible\)/,
    ],
    ["a question", [toParent("ask", "?")], /question/],
    ["a send to no address", [{ to: "nobody", kind: "reply" as const, text: "x" }], /no address/],
  ])("%s changes nothing", (_name, sends, why) => {
    const soup = dispatched();
    const before = soup.snapshot();
    const out = deliverFoldedTurn(soup, WORKER, { sends });
    expect(out.ok).toBe(false);
    expect(out.ok ? "" : out.why).toMatch(why);
    expect(soup.snapshot()).toEqual(before);
  });

  it("a turn that sent nothing still takes its message (the task run's turn consumed it)", () => {
    const soup = dispatched();
    expect(deliverFoldedTurn(soup, WORKER, { sends: [] }).ok).toBe(true);
    expect(soup.mailbox(WORKER)).toEqual([]);
    expect(soup.mailbox(ORCH)).toEqual([]);
  });

  it("a question to the worker's parent is its [ask-step] under the id and policy given: the escalation is pending, nothing reaches the parent's mailbox", () => {
    const soup = dispatched();
    const out = deliverFoldedTurn(soup, WORKER, { sends: [toParent("ask", "REST or gRPC?")] }, Q7);
    expect(out.ok).toBe(true);
    expect(soup.pendingEscalations().map((m) => m.id)).toEqual(["q7"]);
    expect(soup.mailbox(ORCH)).toEqual([]);
    expect(soup.mailbox(WORKER)).toEqual([]);
  });

  it("a reply and a question in one turn: the reply reaches the parent, then the question is posed", () => {
    const soup = dispatched();
    const out = deliverFoldedTurn(
      soup,
      WORKER,
      { sends: [toParent("reply", "half done"), toParent("ask", "REST or gRPC?")] },
      Q7,
    );
    expect(out.ok).toBe(true);
    expect(soup.mailbox(ORCH)).toEqual([expect.objectContaining({ text: "half done" })]);
    expect(soup.pendingEscalations().map((m) => m.id)).toEqual(["q7"]);
  });

  it.each([
    [
      "to a sibling task",
      [{ to: addressKey(SIBLING), kind: "ask" as const, text: "?" }],
      /own parent/,
    ],
    ["two in one turn", [toParent("ask", "?"), toParent("ask", "??")], /one question at most/],
  ])("a question %s changes nothing", (_name, sends, why) => {
    const soup = dispatched();
    const before = soup.snapshot();
    const out = deliverFoldedTurn(soup, WORKER, { sends }, Q7);
    expect(out.ok ? "" : out.why).toMatch(why);
    expect(soup.snapshot()).toEqual(before);
  });
});
