// The invariants of docs/protocol.md#invariants for the soup and its log, as fast-check
// properties over random jobs driven by the seeded scheduler. Each is checked against the
// soup's actual molecules or against the log read independently of the rules, so a wrong rule
// would fail it.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey } from "../../../../src/protocol/address.js";
import { canonicalLine } from "../../../../src/protocol/canonical-json.js";
import {
  Scheduler,
  Soup,
  fold,
  moleculeThread,
  type BusEvent,
  type Effect,
  type Molecule,
  type Policy,
  type Redex,
  type StepResult,
} from "../../../../src/protocol/bus/index.js";
import {
  ORCH,
  World,
  drive,
  intentApproved,
  randomBehaviour,
  type Boundary,
} from "../../../support/protocol/bus-world.js";

const seeds = fc.integer({ min: 0, max: 0x7fffffff });
const RUNS = { numRuns: 25 };

/** Parsed events of a log, in order. */
const eventsOf = (log: string): (BusEvent & { batch: number })[] =>
  log
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as BusEvent & { batch: number });

const stateKinds = new Set(["Idle", "Run", "Send", "AskQuestion"]);

/** Per (A, t): how many lifecycle-state molecules and how many mailboxes the soup holds. */
function census(molecules: Molecule[]) {
  const states = new Map<string, Molecule["kind"][]>();
  const mailboxes = new Map<string, number>();
  for (const m of molecules) {
    if (!("a" in m)) continue;
    const key = addressKey(m.a);
    if (stateKinds.has(m.kind)) states.set(key, [...(states.get(key) ?? []), m.kind]);
    if (m.kind === "Mailbox") mailboxes.set(key, (mailboxes.get(key) ?? 0) + 1);
  }
  return { states, mailboxes };
}

/**
 * The lifecycle edges an (A, t) instance's state may take in one step
 * (docs/protocol.md#message-soup).
 */
const LIFECYCLE: Record<string, string[]> = {
  none: ["Idle"],
  Idle: ["Run", "gone"],
  Run: ["Send", "Idle", "AskQuestion", "gone"],
  Send: ["Idle", "gone"],
  AskQuestion: ["Idle", "gone"],
  gone: [],
};

/** Every job property also runs with no external events, so rules alone are exercised. */
const externals = fc.boolean();

describe("Soup linearity", () => {
  it("Single-instance lifecycle: each (A, t) has at most one of Idle/Run/Send/AskQuestion and one Mailbox, and moves only along the instance lifecycle", () => {
    fc.assert(
      fc.property(seeds, externals, (seed, ext) => {
        const last = new Map<string, string>();
        drive({
          seed,
          steps: 200,
          externals: ext,
          after: (world) => {
            const { states, mailboxes } = census(world.soup.molecules());
            for (const [key, kinds] of states) expect(kinds, key).toHaveLength(1);
            for (const [key, n] of mailboxes) expect(n, key).toBe(1);
            for (const key of new Set([...states.keys(), ...last.keys()])) {
              const before = last.get(key) ?? "none";
              const after = states.get(key)?.[0] ?? (before === "none" ? "none" : "gone");
              if (after !== before)
                expect(LIFECYCLE[before], `${key}: ${before} → ${after}`).toContain(after);
              last.set(key, after);
            }
          },
        });
      }),
      RUNS,
    );
  });

  it("Tree shape: Parent edges form a tree, each created once by [spark] or [ask] from a single parent", () => {
    fc.assert(
      fc.property(seeds, externals, (seed, ext) => {
        const world = drive({
          seed,
          steps: 200,
          externals: ext,
          after: (w) => {
            const parents = new Map<string, string[]>();
            for (const m of w.soup.molecules()) {
              if (m.kind === "Parent")
                parents.set(m.child, [...(parents.get(m.child) ?? []), m.parent]);
            }
            for (const [child, ps] of parents) expect(ps, child).toHaveLength(1);
            for (const child of parents.keys()) {
              const seen = new Set<string>();
              for (let t: string | undefined = child; t !== undefined; t = parents.get(t)?.[0]) {
                expect(seen.has(t), `cycle through ${t}`).toBe(false);
                seen.add(t);
              }
            }
          },
        });
        // From the log alone: every edge-creating event names a thread never seen before.
        const born = new Set<string>([ORCH.thread]);
        for (const e of eventsOf(world.log)) {
          if (e.type === "spark" || e.type === "unblock") {
            expect(born.has(e.to.thread), e.to.thread).toBe(false);
            expect(e.parent).toBe(e.from.thread);
            born.add(e.to.thread);
          }
          if (e.type === "ask") {
            expect(born.has(`escalation:${e.id}`)).toBe(false);
            born.add(`escalation:${e.id}`);
          }
        }
      }),
      RUNS,
    );
  });

  it("Spark exclusivity: each (A, t) gets exactly one spark effect, ever, including across fold", () => {
    fc.assert(
      fc.property(seeds, seeds, fc.double({ min: 0, max: 1, noNaN: true }), (seed, seed2, at) => {
        const before = drive({ seed, steps: 150, externals: true });
        const cut = Math.min(
          before.boundaries.length - 1,
          Math.floor(at * before.boundaries.length),
        );
        const kept: Boundary[] = before.boundaries.slice(0, cut + 1);
        const log = kept.at(-1)!.log;
        const folded = fold(log);
        const observed = new Set<string>();
        const after = drive({
          seed: seed2,
          steps: 150,
          externals: true,
          behaviour: randomBehaviour({ ids: "after-fold" }),
          from: { soup: folded.soup, log, cursor: { seq: folded.seq, batch: folded.batch } },
          after: (w) => {
            for (const a of w.soup.instances()) observed.add(addressKey(a));
          },
        });
        // The engine runs a batch's effects only after appending it: lost batches ran none.
        const effects: Effect[] = [...kept, ...after.boundaries].flatMap((b) => b.effects);
        const sparked = effects.flatMap((e) => (e.kind === "spark" ? [addressKey(e.a)] : []));
        expect(new Set(sparked).size).toBe(sparked.length);
        for (const key of observed)
          if (key !== addressKey(ORCH)) expect(sparked, key).toContain(key);
        // The log says the same: one spark line per instance.
        const lines = eventsOf(after.log).flatMap((e) =>
          e.type === "spark" ? [addressKey(e.to)] : [],
        );
        expect(new Set(lines).size).toBe(lines.length);
      }),
      { numRuns: 15 },
    );
  });

  it("Routing locality: a Send reduces only when (recipient, thread) is in the sender's visibility set", () => {
    fc.assert(
      fc.property(seeds, externals, (seed, ext) => {
        const world = drive({ seed, steps: 250, externals: ext });
        // Visibility rebuilt from the log by its two growth rules (a spark, taking part in a
        // thread), independently of the soup.
        const sees = new Map<string, Set<string>>();
        const see = (x: string, y: string) => sees.set(x, (sees.get(x) ?? new Set()).add(y));
        const live = new Map<string, number>();
        const parentOf = new Map<string, string>();
        const closed = new Set<string>();
        let delivered = 0;
        const roots = new Set<string>();
        for (const e of eventsOf(world.log)) {
          if (e.type === "root") roots.add(e.a.thread);
          if (e.type === "deliver") {
            delivered += 1;
            // Or the orchestrator-reach extension: the root addresses any instance of its tree.
            const reaches = (t: string | undefined): boolean =>
              t !== undefined && (t === e.from.thread || reaches(parentOf.get(t)));
            const byRoot =
              roots.has(e.from.thread) && e.to.thread !== e.from.thread && reaches(e.to.thread);
            expect(
              sees.get(addressKey(e.from))?.has(addressKey(e.to)) === true || byRoot,
              canonicalLine(e),
            ).toBe(true);
            expect(closed.has(e.to.thread)).toBe(false);
            see(addressKey(e.to), addressKey(e.from));
          }
          if (e.type === "spark" || e.type === "unblock") {
            see(addressKey(e.from), addressKey(e.to));
            see(addressKey(e.to), addressKey(e.from));
            parentOf.set(e.to.thread, e.parent);
            live.set(e.parent, (live.get(e.parent) ?? 0) + 1);
            expect(live.get(e.parent), `fan-out of ${e.parent}`).toBeLessThanOrEqual(3);
          }
          if (e.type === "terminate" && !closed.has(e.thread)) {
            closed.add(e.thread);
            const p = parentOf.get(e.thread);
            if (p !== undefined) live.set(p, live.get(p)! - 1);
          }
        }
        expect(delivered).toBeGreaterThanOrEqual(0);
      }),
      RUNS,
    );
  });
});

describe("Fan-out cap", () => {
  it("a parent never has more than the cap of live children; a spark beyond it waits, and starts first come first served when a slot frees", () => {
    fc.assert(
      fc.property(seeds, externals, fc.integer({ min: 1, max: 3 }), (seed, ext, cap) => {
        const world = drive({
          seed,
          steps: 250,
          externals: ext,
          fanOutCap: cap,
          behaviour: randomBehaviour({ maxSparks: 60 }),
        });
        // Replayed from the log alone, by the cap's rule (docs/protocol.md#configuration): a
        // spark past it waits until the parent closes a child, first come first served.
        const live = new Map<string, number>();
        const parentOf = new Map<string, string>();
        const closed = new Set<string>();
        const queue = new Map<string, string[]>();
        let blocked = 0;
        let unblocked = 0;
        for (const e of eventsOf(world.log)) {
          switch (e.type) {
            case "spark":
              expect(queue.get(e.parent) ?? [], `${e.to.thread} jumped the queue`).toEqual([]);
              expect((live.get(e.parent) ?? 0) + 1).toBeLessThanOrEqual(cap);
              live.set(e.parent, (live.get(e.parent) ?? 0) + 1);
              parentOf.set(e.to.thread, e.parent);
              break;
            case "block": {
              const waiting = queue.get(e.from.thread) ?? [];
              // Blocked only when full, or behind others already waiting.
              expect(waiting.length > 0 || (live.get(e.from.thread) ?? 0) >= cap).toBe(true);
              queue.set(e.from.thread, [...waiting, e.to.thread]);
              blocked += 1;
              break;
            }
            case "unblock": {
              const waiting = queue.get(e.parent) ?? [];
              expect(waiting[0], "the oldest waiting spark starts first").toBe(e.to.thread);
              expect(closed.has(e.parent)).toBe(false);
              expect((live.get(e.parent) ?? 0) + 1).toBeLessThanOrEqual(cap);
              queue.set(e.parent, waiting.slice(1));
              live.set(e.parent, (live.get(e.parent) ?? 0) + 1);
              parentOf.set(e.to.thread, e.parent);
              unblocked += 1;
              break;
            }
            case "term-blocked": {
              const waiting = queue.get(e.from.thread) ?? [];
              expect(closed.has(e.from.thread)).toBe(true);
              queue.set(
                e.from.thread,
                waiting.filter((t) => t !== e.to.thread),
              );
              break;
            }
            case "terminate":
              if (!closed.has(e.thread)) {
                closed.add(e.thread);
                const p = parentOf.get(e.thread);
                if (p !== undefined) live.set(p, live.get(p)! - 1);
              }
              break;
            default:
              break;
          }
        }
        // A spark waiting under a live parent with a free slot can always start now.
        const unblockable = new Set(
          world.soup
            .enabled()
            .flatMap((r) =>
              r.rule === "unblock" && r.molecules[0]?.kind === "Blocked"
                ? [r.molecules[0].to.thread]
                : [],
            ),
        );
        for (const [parent, waiting] of queue) {
          if (waiting.length === 0 || closed.has(parent)) continue;
          if ((live.get(parent) ?? 0) < cap) expect(unblockable).toContain(waiting[0]);
          expect(world.soup.blockedUnder(parent).map((b) => b.to.thread)).toEqual(waiting);
        }
        expect(unblocked).toBeLessThanOrEqual(blocked);
      }),
      { numRuns: 40 },
    );
  });

  it("the random jobs above do reach the cap, wait and unblock (the property is not vacuous)", () => {
    let blocks = 0;
    let unblocks = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const world = drive({ seed, steps: 250, fanOutCap: 1, externals: true });
      for (const e of eventsOf(world.log)) {
        if (e.type === "block") blocks += 1;
        if (e.type === "unblock") unblocks += 1;
      }
    }
    expect(blocks).toBeGreaterThan(5);
    expect(unblocks).toBeGreaterThan(0);
  });
});

describe("Escalation", () => {
  const policies: Policy[] = ["never", "when_unsure", "always"];
  for (const policy of policies) {
    it(`Escalation reaches respond: under ${policy}, every AskQuestion fires [respond] under a fair scheduler`, () => {
      fc.assert(
        fc.property(seeds, (seed) => {
          // Agents that never close a child: no withdraw may cancel a pending escalation.
          const behaviour = randomBehaviour({ policy, closes: false });
          const world = drive({ seed, steps: 150, behaviour });
          // Then no new work: Runs may only end quietly; the escalations play out.
          const calm = (r: Redex) => r.rule !== "ask-step" && r.rule !== "send-step";
          const scheduler = new Scheduler(world.soup, { seed: seed + 1, behaviour, allow: calm });
          const { quiescent } = scheduler.run(20_000, (f) => world.commit(f.result));
          expect(quiescent).toBe(true);
          expect(world.soup.pendingEscalations()).toEqual([]);
          const events = eventsOf(world.log);
          const asked = events.flatMap((e) => (e.type === "ask" ? [e.id] : []));
          const replied = new Set<string>();
          const responded = new Set<string>();
          for (const e of events) {
            if (e.type === "escalate") expect(policy, "escalate under never").not.toBe("never");
            if (e.type === "human-reply") replied.add(e.id);
            if (e.type === "respond") {
              if (policy === "always")
                expect(replied.has(e.id), `${e.id} answered before a human reply`).toBe(true);
              responded.add(e.id);
            }
          }
          for (const id of asked) expect(responded.has(id), id).toBe(true);
          expect(events.some((e) => e.type === "term-proxy")).toBe(false);
        }),
        { numRuns: 15 },
      );
    });
  }
});

describe("Withdrawal", () => {
  it("Cascade completeness: Terminate(t) reaches every transitive child, nothing tagged with a terminated thread remains, and Terminate self-erases", () => {
    fc.assert(
      fc.property(
        seeds,
        fc.nat(),
        fc.constantFrom("merge" as const, "drop" as const),
        (seed, which, mode) => {
          const world = drive({ seed, steps: 150, fanOutCap: 4 });
          const soup = world.soup;
          // At rest first, so the terminate's drain is only the cascade.
          world.commit(soup.settle());
          const threads = [...new Set(soup.instances().map((a) => a.thread))].filter(
            (t) => !soup.isTerminated(t),
          );
          const target = threads[which % threads.length]!;
          const edges = soup
            .molecules()
            .flatMap((m) => (m.kind === "Parent" ? [[m.child, m.parent]] : []));
          const subtree = new Set([target]);
          for (let grew = true; grew;) {
            grew = false;
            for (const [child, parent] of edges) {
              if (subtree.has(parent!) && !subtree.has(child!))
                grew = subtree.add(child!) !== undefined;
            }
          }
          const inside = soup.instances().filter((a) => subtree.has(a.thread));
          const result = soup.terminate(target, mode);
          world.commit(result);
          for (const t of subtree) expect(soup.isTerminated(t), t).toBe(true);
          assertCleanAfterTermination(soup);
          const released = result.effects.flatMap((e) => (e.kind === "release" ? [e] : []));
          expect(released.map((e) => addressKey(e.a)).sort()).toEqual(
            inside.map(addressKey).sort(),
          );
          for (const e of released) expect(e.mode).toBe(mode);
        },
      ),
      RUNS,
    );
  });

  it("Cascade completeness: with closes and withdraws interleaved with every other rule, a run at rest holds nothing tagged with a terminated thread", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const world = drive({ seed, steps: 250, externals: true });
        const calm = (r: Redex) => r.rule !== "ask-step" && r.rule !== "send-step";
        new Scheduler(world.soup, { seed, behaviour: randomBehaviour(), allow: calm }).run(20_000);
        expect(world.soup.isQuiescent()).toBe(true);
        assertCleanAfterTermination(world.soup);
        // Every thread below a terminated one is terminated too.
        for (const a of world.soup.instances()) {
          for (let t: string | null = a.thread; t !== null; t = world.soup.parentOf(t)) {
            expect(world.soup.isTerminated(t), `${addressKey(a)} lives under ${t}`).toBe(false);
          }
        }
      }),
      RUNS,
    );
  });
});

function assertCleanAfterTermination(soup: Soup): void {
  for (const m of soup.molecules()) {
    expect(m.kind, canonicalLine(m)).not.toBe("Terminate");
    // A Parent edge is tagged by its parent; a live parent may keep an edge to a closed child.
    expect(soup.isTerminated(moleculeThread(m)), canonicalLine(m)).toBe(false);
  }
}

describe("Persistence and recovery", () => {
  it("Bus durability: fold of the log at every batch boundary equals the durable projection of the soup there", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const world = drive({ seed, steps: 150, externals: true });
        for (const b of world.boundaries) {
          expect(canonicalLine(fold(b.log).soup.snapshot())).toBe(canonicalLine(b.durable));
        }
      }),
      { numRuns: 20 },
    );
  });

  it("Bounded crash-loss: cut the log at ANY byte and fold gives the state at the last complete batch", () => {
    fc.assert(
      fc.property(
        seeds,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 20 }),
        (seed, cuts) => {
          const world = drive({
            seed,
            steps: 120,
            externals: true,
            behaviour: randomBehaviour({ unicode: true }),
          });
          const bytes = Buffer.from(world.log);
          const ends = world.boundaries.map((b) => Buffer.byteLength(b.log));
          for (const fraction of cuts) {
            const at = Math.floor(fraction * bytes.length);
            const folded = fold(bytes.subarray(0, at).toString("utf8"));
            const last = ends.findLastIndex((end) => end <= at);
            const expected = last < 0 ? new Soup().snapshot() : world.boundaries[last]!.durable;
            expect(canonicalLine(folded.soup.snapshot())).toBe(canonicalLine(expected));
            expect(folded.committed.bytes).toBe(last < 0 ? 0 : ends[last]);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it("Bounded crash-loss: a crash mid-Run loses that turn only; its message waits in the mailbox", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const world = drive({ seed, steps: 120 });
        const soup = world.soup;
        const runnable = soup.runnable();
        if (runnable.length === 0) return;
        const a = runnable[0]!;
        const before = soup.durable().snapshot();
        const woke = world.commit(soup.wake(a)) as StepResult & { message: unknown };
        // The turn's work happens, but its batch never reaches the log: the process dies.
        const crashed = fold(world.log).soup;
        expect(crashed.snapshot()).toEqual(before);
        expect(crashed.stateOf(a)).toBe("Idle");
        expect(crashed.wake(a).message).toEqual(woke.message);
      }),
      RUNS,
    );
  });

  it("Audit append-only: every later log has every earlier one as a byte prefix, and fold never rewrites", () => {
    fc.assert(
      fc.property(seeds, fc.double({ min: 0, max: 1, noNaN: true }), (seed, crashAt) => {
        const world = drive({
          seed,
          steps: 120,
          externals: true,
          after: (w, _step, fired) => {
            if (fired !== null && fired.step % 17 === 0)
              w.commit(intentApproved(ORCH, `turn ${fired.step}`));
          },
        });
        const logs = world.boundaries.map((b) => b.log);
        for (let i = 1; i < logs.length; i++) expect(logs[i]!.startsWith(logs[i - 1]!)).toBe(true);
        const audits = logs.map((log) => fold(log).audit);
        for (let i = 1; i < audits.length; i++) {
          expect(audits[i]!.slice(0, audits[i - 1]!.length)).toEqual(audits[i - 1]);
        }
        expect(audits.at(-1)!.length).toBeGreaterThan(0);
        // A crash anywhere, then the engine resumes: truncate to what fold committed, append.
        const cut = world.log.slice(0, Math.floor(crashAt * world.log.length));
        const folded = fold(cut);
        const kept = cut.slice(0, folded.committed.chars);
        expect(logs.includes(kept) || kept === "").toBe(true);
        const resumed = new World(folded.soup);
        resumed.log = kept;
        resumed.cursor = { seq: folded.seq, batch: folded.batch };
        resumed.commit(intentApproved(ORCH, "turn 999"));
        expect(resumed.log.startsWith(kept)).toBe(true);
        expect(fold(resumed.log).audit.slice(0, folded.audit.length)).toEqual(folded.audit);
      }),
      RUNS,
    );
  });
});
