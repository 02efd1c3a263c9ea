// One example per reduction rule, named after it, held against the rules as docs/protocol.md
// states them (#message-soup, #dispatch, #escalation, #intervention, #withdrawal).

import { describe, expect, it } from "vitest";
import {
  BusRuleError,
  BusUsageError,
  RULE_NAMES,
  Soup,
  type Molecule,
  type Redex,
  type RuleName,
} from "../../../../src/protocol/bus/index.js";
import { ORCH, msg } from "../../../support/protocol/bus-world.js";

const A = { agent: "a", thread: "t1" };
const B = { agent: "b", thread: "t2" };
const x = msg("x");
const y = msg("y");

/** The only enabled redex of `rule`; fails the test if there is not exactly one. */
function only(soup: Soup, rule: RuleName): Redex {
  const found = soup.enabled().filter((r) => r.rule === rule);
  expect(found, `enabled [${rule}]`).toHaveLength(1);
  return found[0]!;
}

const rulesOf = (soup: Soup) =>
  soup
    .enabled()
    .map((r) => r.rule)
    .sort();
const kinds = (soup: Soup) => soup.molecules().map((m) => m.kind);

/** A soup of exactly these molecules; A and B see each other (as after a spark). */
function soupOf(molecules: Molecule[], fanOutCap?: number): Soup {
  return Soup.from(
    {
      molecules,
      visibility: [
        ["a@t1", ["b@t2"]],
        ["b@t2", ["a@t1"]],
      ],
    },
    fanOutCap === undefined ? {} : { fanOutCap },
  );
}

describe("message-soup rules", () => {
  it("[send] appends x to an existing visible mailbox and stamps the sender", () => {
    const soup = soupOf([
      { kind: "Send", a: A, msgs: [{ kind: "deliver", to: B, content: x }] },
      { kind: "Mailbox", a: B, queue: [y] },
      { kind: "Idle", a: B },
    ]);
    const result = soup.fire(only(soup, "send"));
    expect(soup.mailbox(B)).toEqual([y, { ...x, from: A }]);
    expect(soup.molecules()).toContainEqual({ kind: "Send", a: A, msgs: [] });
    expect(result.events).toEqual([
      { type: "deliver", from: A, to: B, content: { ...x, from: A } },
    ]);
  });

  it("[spark] brings a fresh (A, t') into being: mailbox [x], Idle, Parent(t', t), visibility", () => {
    const soup = soupOf([
      {
        kind: "Send",
        a: A,
        msgs: [{ kind: "deliver", to: { agent: "c", thread: "t9" }, content: x }],
      },
    ]);
    const C = { agent: "c", thread: "t9" };
    const result = soup.fire(only(soup, "spark"));
    expect(soup.molecules()).toEqual(
      expect.arrayContaining([
        { kind: "Idle", a: C },
        { kind: "Mailbox", a: C, queue: [{ ...x, from: A }] },
        { kind: "Parent", child: "t9", parent: "t1" },
      ]),
    );
    expect(soup.visibleFrom(A)).toContainEqual(C);
    expect(soup.visibleFrom(C)).toEqual([A]);
    expect(result.effects).toEqual([
      { kind: "spark", a: C, parent: "t1", from: A, first: { ...x, from: A } },
    ]);
    // [wake] is immediately fireable on the spark message.
    expect(soup.runnable()).toEqual([C]);
  });

  it("[send-terminate] places Terminate(t', merge) and keeps Parent(t', t)", () => {
    const soup = soupOf([
      { kind: "Send", a: A, msgs: [{ kind: "terminate", thread: "t2" }] },
      { kind: "Parent", child: "t2", parent: "t1" },
      { kind: "Idle", a: B },
    ]);
    const result = soup.fire(only(soup, "send-terminate"));
    expect(soup.molecules()).toEqual(
      expect.arrayContaining([
        { kind: "Parent", child: "t2", parent: "t1" },
        { kind: "Terminate", thread: "t2", mode: "merge" },
      ]),
    );
    expect(soup.isTerminated("t2")).toBe(true);
    expect(result.events[0]).toMatchObject({ type: "terminate", thread: "t2", mode: "merge" });
  });

  it("[send-empty] turns an empty Send back into Idle on the same thread", () => {
    const soup = soupOf([{ kind: "Send", a: A, msgs: [] }]);
    soup.fire(only(soup, "send-empty"));
    expect(soup.molecules()).toEqual([{ kind: "Idle", a: A }]);
  });

  it("[wake] runs the head of the mailbox and leaves the rest", () => {
    const soup = soupOf([
      { kind: "Idle", a: A },
      { kind: "Mailbox", a: A, queue: [x, y] },
    ]);
    soup.fire(only(soup, "wake"));
    expect(soup.molecules()).toEqual([
      { kind: "Run", a: A, msg: x, via: [{ from: "mailbox", content: x }] },
      { kind: "Mailbox", a: A, queue: [y] },
    ]);
  });

  it("[send-step] ends a Run with the broadcast the agent chose", () => {
    const soup = soupOf([{ kind: "Run", a: A, msg: x, via: [{ from: "mailbox", content: x }] }]);
    const xs = [{ kind: "deliver" as const, to: B, content: y }];
    const result = soup.fire(only(soup, "send-step"), xs);
    expect(soup.molecules()).toEqual([{ kind: "Send", a: A, msgs: xs }]);
    expect(result.events).toEqual([
      {
        type: "turn-end",
        a: A,
        rule: "send-step",
        consumed: [{ from: "mailbox", content: x }],
        payloads: xs,
      },
    ]);
  });

  it("[nosend-step] ends a Run in Idle without broadcasting", () => {
    const soup = soupOf([{ kind: "Run", a: A, msg: x, via: [] }]);
    expect(rulesOf(soup)).toEqual(["ask-step", "nosend-step", "send-step"]);
    soup.fire(only(soup, "nosend-step"));
    expect(soup.molecules()).toEqual([{ kind: "Idle", a: A }]);
  });
});

describe("escalation rules", () => {
  const question = msg("which db?");
  const proxy = (policy: "never" | "when_unsure" | "always", h: "fresh" | "post-human" = "fresh") =>
    ({ kind: "Proxy", id: "q1", caller: A, question, policy, h }) as const;

  it("[ask-step] ends a Run in AskQuestion and reserves escalation:<id>", () => {
    const soup = soupOf([{ kind: "Run", a: A, msg: x, via: [] }]);
    soup.fire(only(soup, "ask-step"), { id: "q1", question, policy: "when_unsure" });
    expect(soup.molecules()).toEqual([
      { kind: "AskQuestion", a: A, id: "q1", question, policy: "when_unsure" },
    ]);
    const again = soupOf([{ kind: "Run", a: A, msg: x, via: [] }]);
    again.root({ agent: "p", thread: "escalation:q1" });
    expect(() =>
      again.fire(only(again, "ask-step"), { id: "q1", question, policy: "never" }),
    ).toThrow(BusUsageError);
  });

  it("[ask] turns AskQuestion into Proxy(fresh) ‖ Idle ‖ Parent(escalation:<id>, t)", () => {
    const soup = soupOf([{ kind: "AskQuestion", a: A, id: "q1", question, policy: "always" }]);
    const result = soup.fire(only(soup, "ask"));
    expect(soup.molecules()).toEqual([
      { kind: "Idle", a: A },
      { kind: "Parent", child: "escalation:q1", parent: "t1" },
      proxy("always"),
    ]);
    expect(result.effects[0]).toMatchObject({ kind: "proxy-turn", id: "q1", h: "fresh" });
  });

  it("[escalate] asks the human unless the policy is never", () => {
    const soup = soupOf([proxy("when_unsure"), { kind: "Mailbox", a: A, queue: [] }]);
    const result = soup.fire(only(soup, "escalate"), msg("framed"));
    expect(soup.pendingEscalations()).toEqual([
      { kind: "AskHuman", id: "q1", caller: A, framed: msg("framed"), policy: "when_unsure" },
    ]);
    expect(result.effects).toEqual([
      { kind: "ask-human", id: "q1", caller: A, framed: msg("framed"), policy: "when_unsure" },
    ]);
    const never = soupOf([proxy("never"), { kind: "Mailbox", a: A, queue: [] }]);
    expect(rulesOf(never)).toEqual(["respond"]);
  });

  it("[human-reply] hands the reply back to the proxy as post-human", () => {
    const soup = soupOf([
      { kind: "AskHuman", id: "q1", caller: A, framed: question, policy: "always" },
    ]);
    soup.fire(only(soup, "human-reply"), msg("postgres"));
    expect(soup.pendingEscalations()).toEqual([
      {
        kind: "Proxy",
        id: "q1",
        caller: A,
        question: msg("postgres"),
        policy: "always",
        h: "post-human",
      },
    ]);
  });

  it("[respond] appends the answer to the caller's mailbox; under always only post-human", () => {
    const soup = soupOf([proxy("when_unsure"), { kind: "Mailbox", a: A, queue: [x] }]);
    const answer = { kind: "answer", text: "[WITHDRAW]\nnot needed" };
    const result = soup.fire(only(soup, "respond"), answer);
    expect(soup.mailbox(A)).toEqual([x, answer]);
    expect(soup.pendingEscalations()).toEqual([]);
    expect(result.effects).toEqual([
      { kind: "answered", id: "q1", caller: A, answer, withdraw: { reason: "not needed" } },
    ]);
    const fresh = soupOf([proxy("always"), { kind: "Mailbox", a: A, queue: [] }]);
    expect(rulesOf(fresh)).toEqual(["escalate"]);
    const replied = soupOf([proxy("always", "post-human"), { kind: "Mailbox", a: A, queue: [] }]);
    expect(rulesOf(replied)).toEqual(["escalate", "respond"]);
  });
});

describe("intervention rules", () => {
  it("[interrupt] replaces the Run's message and keeps what it had consumed", () => {
    const soup = soupOf([
      { kind: "Run", a: A, msg: x, via: [{ from: "mailbox", content: x }] },
      { kind: "Interrupt", thread: "t1", content: y },
    ]);
    soup.fire(only(soup, "interrupt"));
    expect(soup.molecules()).toEqual([
      {
        kind: "Run",
        a: A,
        msg: y,
        via: [
          { from: "mailbox", content: x },
          { from: "interrupt", content: y },
        ],
      },
    ]);
  });

  it("[wake-int] starts a sleeping instance on the Interrupt, bypassing its mailbox", () => {
    const soup = soupOf([
      { kind: "Idle", a: A },
      { kind: "Mailbox", a: A, queue: [x] },
      { kind: "Interrupt", thread: "t1", content: y },
    ]);
    expect(rulesOf(soup)).toEqual(["wake", "wake-int"]);
    const woke = soup.wake(A);
    expect(woke.rule).toBe("wake-int");
    expect(woke.message).toEqual(y);
    expect(soup.mailbox(A)).toEqual([x]);
  });
});

describe("withdrawal rules", () => {
  const term = { kind: "Terminate", thread: "t1", mode: "drop" } as const;

  it("[term-run] consumes the Run and releases the instance", () => {
    const soup = soupOf([term, { kind: "Run", a: A, msg: x, via: [] }]);
    const result = soup.fire(only(soup, "term-run"));
    expect(kinds(soup)).toEqual(["Terminate"]);
    expect(result.effects).toEqual([
      { kind: "release", a: A, mode: "drop", parent: null, rule: "term-run" },
    ]);
  });

  it("[term-idle] consumes the Idle and releases the instance", () => {
    const soup = soupOf([term, { kind: "Idle", a: A }]);
    expect(soup.fire(only(soup, "term-idle")).effects[0]).toMatchObject({ kind: "release", a: A });
    expect(kinds(soup)).toEqual(["Terminate"]);
  });

  it("[term-mbox] flushes the mailbox", () => {
    const soup = soupOf([term, { kind: "Mailbox", a: A, queue: [x] }]);
    soup.fire(only(soup, "term-mbox"));
    expect(kinds(soup)).toEqual(["Terminate"]);
  });

  it("[term-send] drops the in-flight broadcast", () => {
    const soup = soupOf([
      term,
      { kind: "Send", a: A, msgs: [{ kind: "deliver", to: B, content: x }] },
    ]);
    soup.fire(only(soup, "term-send"));
    expect(kinds(soup)).toEqual(["Terminate"]);
  });

  it("[cascade] terminates the child with the parent's mode and consumes the edge", () => {
    const soup = soupOf([
      term,
      { kind: "Parent", child: "t2", parent: "t1" },
      { kind: "Idle", a: B },
    ]);
    soup.fire(only(soup, "cascade"));
    expect(soup.molecules()).toEqual([
      { kind: "Idle", a: B },
      { kind: "Terminate", thread: "t1", mode: "drop" },
      { kind: "Terminate", thread: "t2", mode: "drop" },
    ]);
  });

  it("[term-final] erases the Terminate once nothing tagged with its thread remains", () => {
    const soup = soupOf([term, { kind: "Idle", a: A }]);
    expect(rulesOf(soup)).toEqual(["term-idle"]);
    soup.fire(only(soup, "term-idle"));
    soup.fire(only(soup, "term-final"));
    expect(soup.molecules()).toEqual([]);
    expect(soup.isTerminated("t1")).toBe(true);
  });

  it("[term-ask] consumes a pending AskQuestion (extension)", () => {
    const soup = soupOf([
      term,
      { kind: "AskQuestion", a: A, id: "q", question: x, policy: "never" },
    ]);
    expect(soup.fire(only(soup, "term-ask")).effects[0]).toMatchObject({
      kind: "release",
      rule: "term-ask",
    });
    expect(kinds(soup)).toEqual(["Terminate"]);
  });

  it("[term-proxy] consumes a pending escalation reached by a cascade (extension)", () => {
    const soup = soupOf([
      { kind: "Terminate", thread: "escalation:q", mode: "drop" },
      { kind: "AskHuman", id: "q", caller: A, framed: x, policy: "always" },
    ]);
    expect(soup.fire(only(soup, "term-proxy")).effects).toEqual([
      { kind: "cancelled", id: "q", caller: A },
    ]);
    expect(kinds(soup)).toEqual(["Terminate"]);
  });

  it("[term-int] consumes an Interrupt aimed at a terminated thread (extension)", () => {
    const soup = soupOf([term, { kind: "Interrupt", thread: "t1", content: x }]);
    soup.fire(only(soup, "term-int"));
    expect(kinds(soup)).toEqual(["Terminate"]);
  });
});

describe("routing locality", () => {
  it("[send-refuse] drops a payload that fails the check and tells the sender (extension)", () => {
    const C = { agent: "c", thread: "t3" };
    const soup = soupOf([
      { kind: "Send", a: A, msgs: [{ kind: "deliver", to: C, content: x }] },
      { kind: "Idle", a: C },
      { kind: "Mailbox", a: C, queue: [] },
    ]);
    expect(rulesOf(soup)).toEqual(["send-refuse"]);
    const result = soup.fire(only(soup, "send-refuse"));
    expect(soup.mailbox(C)).toEqual([]);
    expect(result.effects[0]).toMatchObject({
      kind: "refused",
      rejection: { reason: "not-visible" },
    });
    expect(result.events[0]).toMatchObject({ type: "refuse", reason: "not-visible" });
  });

  it("has a test above for every rule", () => {
    // Guards this file: a new rule needs its own example.
    expect(RULE_NAMES).toHaveLength(27);
  });
});

describe("fan-out cap: a spark beyond it waits (extension)", () => {
  const C = { agent: "c", thread: "t3" };
  /** A with one live child (B on t2) under a cap of 1. */
  const full = (extra: Molecule[]) =>
    Soup.from(
      {
        molecules: [
          { kind: "Parent", child: "t2", parent: "t1" },
          { kind: "Idle", a: B },
          { kind: "Mailbox", a: B, queue: [] },
          ...extra,
        ],
        visibility: [
          ["a@t1", ["b@t2"]],
          ["b@t2", ["a@t1"]],
        ],
      },
      { fanOutCap: 1 },
    );

  it("[send-block] moves a spark past the cap out of the Send into Blocked, reserving its thread", () => {
    const soup = full([{ kind: "Send", a: A, msgs: [{ kind: "deliver", to: C, content: x }] }]);
    expect(rulesOf(soup)).toEqual(["send-block"]);
    const result = soup.fire(only(soup, "send-block"));
    expect(soup.molecules()).toContainEqual({ kind: "Send", a: A, msgs: [] });
    expect(soup.molecules()).toContainEqual({ kind: "Blocked", a: A, to: C, content: x });
    expect(result.events).toEqual([{ type: "block", from: A, to: C, content: x }]);
    expect(result.effects).toEqual([{ kind: "blocked", from: A, to: C, content: x, queued: 1 }]);
    expect(soup.snapshot().threads).toContainEqual(["t3", "blocked"]);
    expect(rulesOf(soup)).toEqual(["send-empty"]);
  });

  it("[unblock] starts the oldest Blocked once its parent has a free slot, as [spark] would", () => {
    const D = { agent: "d", thread: "t4" };
    const soup = full([
      { kind: "Idle", a: A },
      { kind: "Blocked", a: A, to: C, content: x },
      { kind: "Blocked", a: A, to: D, content: y },
    ]);
    expect(rulesOf(soup)).toEqual([]);
    const closed = soup.terminate("t2", "merge");
    // The close drained to rest: B released, its slot given to C, which can wake; D waits.
    expect(closed.effects.map((e) => e.kind)).toEqual(["release", "spark"]);
    expect(rulesOf(soup)).toEqual(["wake"]);
    expect(soup.children("t1")).toEqual(["t2", "t3"]);
    expect(soup.mailbox(C)).toEqual([{ ...x, from: A }]);
    expect(soup.stateOf(C)).toBe("Idle");
    expect(soup.visibleFrom(A)).toContainEqual(C);
    expect(soup.visibleFrom(C)).toEqual([A]);
    expect(soup.blockedUnder("t1")).toEqual([{ kind: "Blocked", a: A, to: D, content: y }]);
  });

  it("[unblock] is the only rule a freed slot enables, and only for the queue's head", () => {
    const D = { agent: "d", thread: "t4" };
    const soup = Soup.from(
      {
        molecules: [
          { kind: "Idle", a: A },
          { kind: "Blocked", a: A, to: C, content: x },
          { kind: "Blocked", a: A, to: D, content: y },
        ],
      },
      { fanOutCap: 1 },
    );
    expect(rulesOf(soup)).toEqual(["unblock"]);
    const result = soup.fire(only(soup, "unblock"));
    expect(result.events).toEqual([
      { type: "unblock", from: A, to: C, parent: "t1", content: { ...x, from: A } },
    ]);
    expect(result.effects).toEqual([
      { kind: "spark", a: C, parent: "t1", from: A, first: { ...x, from: A } },
    ]);
    expect(rulesOf(soup)).toEqual(["wake"]);
  });

  it("[term-blocked] drops a waiting spark of a terminated thread; its thread is closed for good", () => {
    const soup = Soup.from({
      molecules: [
        { kind: "Terminate", thread: "t1", mode: "drop" },
        { kind: "Blocked", a: A, to: C, content: x },
      ],
    });
    expect(rulesOf(soup)).toEqual(["term-blocked"]);
    const result = soup.fire(only(soup, "term-blocked"));
    expect(result.effects).toEqual([{ kind: "blocked-dropped", from: A, to: C }]);
    expect(soup.isTerminated("t3")).toBe(true);
    expect(rulesOf(soup)).toEqual(["term-final"]);
  });
});

// Rules fire wherever the molecules they consume are disjoint (docs/protocol.md#message-soup):
// a soup with three independent reductions enabled at once.
describe("concurrent reduction", () => {
  const [T1, T2, T3, T4] = ["t₁", "t₂", "t₃", "t₄"];
  const D = { agent: "D", thread: T2! };
  const diagram = () =>
    Soup.from({
      molecules: [
        { kind: "Run", a: { agent: "A", thread: T1! }, msg: msg("m₁"), via: [] },
        { kind: "Idle", a: { agent: "B", thread: T3! } },
        {
          kind: "Send",
          a: { agent: "C", thread: T4! },
          msgs: [{ kind: "deliver", to: D, content: msg("hi") }],
        },
        { kind: "Mailbox", a: { agent: "B", thread: T3! }, queue: [msg("reply")] },
        { kind: "Mailbox", a: D, queue: [] },
      ],
      visibility: [["C@t₄", ["D@t₂"]]],
    });

  it("has exactly three parallel reductions enabled that share no molecule", () => {
    const soup = diagram();
    const enabled = soup.enabled();
    // [send-step] and its sibling terminals share their one molecule, the Run: one reduction.
    const groups = new Map<string, Set<string>>();
    for (const r of enabled) {
      const key = JSON.stringify(r.molecules);
      groups.set(key, (groups.get(key) ?? new Set()).add(r.rule));
    }
    expect([...groups.values()].map((rules) => [...rules].sort())).toEqual(
      expect.arrayContaining([["send"], ["wake"], ["ask-step", "nosend-step", "send-step"]]),
    );
    expect(groups.size).toBe(3);
    const used = enabled
      .filter((r) => ["send", "wake", "send-step"].includes(r.rule))
      .flatMap((r) => r.molecules);
    expect(new Set(used).size).toBe(used.length);
  });

  it("fires them in any order to the same soup", () => {
    const pickRule = (soup: Soup, rule: RuleName) => soup.enabled().find((r) => r.rule === rule)!;
    const run = (order: RuleName[]) => {
      const soup = diagram();
      for (const rule of order)
        soup.fire(pickRule(soup, rule), rule === "send-step" ? [] : undefined);
      return soup;
    };
    const first = run(["send", "wake", "send-step"]);
    expect(run(["send-step", "wake", "send"]).equals(first)).toBe(true);
    expect(run(["wake", "send-step", "send"]).equals(first)).toBe(true);
    expect(first.mailbox(D)).toEqual([{ ...msg("hi"), from: { agent: "C", thread: T4 } }]);
  });

  it("refuses a redex that is no longer enabled", () => {
    const soup = diagram();
    const wake = soup.enabled().find((r) => r.rule === "wake")!;
    soup.fire(wake);
    expect(() => soup.fire(wake)).toThrow(BusRuleError);
  });
});

describe("engine-facing calls", () => {
  it("endTurn drains deterministic rules to rest and releases children before parents", () => {
    const soup = new Soup();
    soup.root(ORCH, msg("start"));
    soup.wake(ORCH);
    const lead = { agent: "lead", thread: "state:intent:1" };
    soup.endTurn(ORCH, {
      rule: "send-step",
      payloads: [{ kind: "deliver", to: lead, content: x }],
    });
    soup.wake(lead);
    const task = { agent: "dev", thread: "dispatch:1" };
    soup.endTurn(lead, {
      rule: "send-step",
      payloads: [{ kind: "deliver", to: task, content: y }],
    });
    expect(soup.isQuiescent()).toBe(false); // dev has mail
    expect(soup.stateOf(lead)).toBe("Idle");
    const result = soup.terminate("state:intent:1", "merge");
    expect(result.effects).toEqual([
      { kind: "release", a: task, mode: "merge", parent: "state:intent:1", rule: "term-idle" },
      { kind: "release", a: lead, mode: "merge", parent: "job", rule: "term-idle" },
    ]);
    expect(soup.instances()).toEqual([ORCH]);
    expect(soup.molecules().filter((m) => m.kind === "Terminate")).toEqual([]);
  });

  it("interrupt and terminate refuse terminated or unknown threads", () => {
    const soup = new Soup();
    soup.root(ORCH);
    expect(() => soup.interrupt("nope", x)).toThrow(BusUsageError);
    soup.terminate("job", "drop");
    expect(() => soup.terminate("job", "drop")).toThrow(/terminated/);
    expect(() => soup.interrupt("job", x)).toThrow(/terminated/);
  });

  it("escalate refuses under policy never; respond waits for a human reply under always", () => {
    const soup = new Soup();
    soup.root(ORCH, x);
    soup.wake(ORCH);
    soup.endTurn(ORCH, { rule: "ask-step", id: "n", question: x, policy: "never" });
    expect(() => soup.escalate("n", y)).toThrow(BusRuleError);
    soup.respond("n", y);
    soup.wake(ORCH);
    soup.endTurn(ORCH, { rule: "ask-step", id: "a", question: x, policy: "always" });
    expect(() => soup.respond("a", y)).toThrow(BusRuleError);
    soup.escalate("a", y);
    soup.humanReply("a", msg("ok"));
    expect(soup.respond("a", msg("done")).effects[0]).toMatchObject({
      kind: "answered",
      withdraw: null,
    });
  });

  it("preempt fires [interrupt] on a running instance; the abandoned message is consumed", () => {
    const soup = new Soup();
    soup.root(ORCH, x);
    soup.wake(ORCH);
    soup.interrupt("job", y);
    const result = soup.preempt(ORCH);
    expect(result).toMatchObject({ rule: "interrupt", message: y });
    soup.endTurn(ORCH, { rule: "nosend-step" });
    expect(soup.mailbox(ORCH)).toEqual([]);
    expect(soup.runnable()).toEqual([]);
  });

  it("settle drains a Send left in flight, e.g. after folding a log written step by step", () => {
    const soup = Soup.from({
      molecules: [
        { kind: "Send", a: ORCH, msgs: [{ kind: "deliver", to: A, content: x }] },
        { kind: "Mailbox", a: ORCH, queue: [] },
      ],
    });
    const result = soup.settle();
    expect(result.events.map((e) => e.type)).toEqual(["spark", "send-empty"]);
    expect(soup.stateOf(ORCH)).toBe("Idle");
    expect(soup.stateOf(A)).toBe("Idle");
  });
});
