// The orchestrator-reach routing extension (src/protocol/bus/orchestrator-reach.ts): the root
// instance may Send into the mailbox of any instance of its dispatch tree, so that a failed
// run's recovery message reaches the failing instance as mail (docs/protocol.md#persistence),
// and nobody else gains anything.

import { describe, expect, it } from "vitest";
import { Soup, type Payload } from "../../../../src/protocol/bus/index.js";
import { ORCH, msg } from "../../../support/protocol/bus-world.js";

const LEAD = { agent: "lead", thread: "state:intent:1" };
const WORKER = { agent: "worker", thread: "dispatch:a" };
const deliver = (to: { agent: string; thread: string }, text: string): Payload => ({
  kind: "deliver",
  to,
  content: msg(text),
});

/** orchestrator → lead → worker, everybody Idle again, the orchestrator Running. */
function tree(): Soup {
  const soup = new Soup();
  soup.root(ORCH, msg("start"));
  soup.wake(ORCH);
  soup.endTurn(ORCH, { rule: "send-step", payloads: [deliver(LEAD, "lead it")] });
  soup.wake(LEAD);
  soup.endTurn(LEAD, { rule: "send-step", payloads: [deliver(WORKER, "do it")] });
  soup.wake(WORKER);
  soup.endTurn(WORKER, { rule: "nosend-step" });
  soup.interrupt("job", msg("a failure observed"));
  soup.wake(ORCH);
  return soup;
}

describe("orchestrator-reach (routing extension)", () => {
  it("the root reaches a grandchild it never saw: the recovery lands in its mailbox", () => {
    const soup = tree();
    expect(soup.visibleFrom(ORCH).map((a) => a.agent)).toEqual(["lead"]);
    expect(soup.check(ORCH, deliver(WORKER, "your turn failed"))).toBeNull();
    const step = soup.endTurn(ORCH, {
      rule: "send-step",
      payloads: [deliver(WORKER, "your turn failed")],
    });
    expect(step.events.map((e) => e.type)).toContain("deliver");
    expect(soup.mailbox(WORKER).map((c) => c.text)).toEqual(["your turn failed"]);
  });

  it("nobody else gains reach: a worker still cannot address its grandparent", () => {
    const soup = tree();
    soup.endTurn(ORCH, { rule: "nosend-step" });
    soup.interrupt(WORKER.thread, msg("go"));
    soup.wake(WORKER);
    expect(soup.check(WORKER, deliver(ORCH, "hi"))).toMatchObject({ reason: "not-visible" });
  });

  it("the root cannot address a terminated instance or itself", () => {
    const soup = tree();
    expect(soup.check(ORCH, deliver(ORCH, "me"))).toMatchObject({ reason: "not-visible" });
    soup.terminate(WORKER.thread, "drop");
    expect(soup.check(ORCH, deliver(WORKER, "late"))).toMatchObject({ reason: "terminated" });
  });
});
