// Test support: random agent/proxy/human behaviour for the scheduler, and a World that
// drives a soup, writes its log batch by batch, and remembers every batch boundary.

import type { Address } from "../../../src/protocol/address.js";
import {
  LOG_START,
  Scheduler,
  Soup,
  encodeBatch,
  mulberry32,
  nextCursor,
  pick,
  withdrawAnswer,
  type Behaviour,
  type Effect,
  type Fired,
  type LogCursor,
  type Payload,
  type Policy,
  type Redex,
  type Rng,
  type SoupSnapshot,
  type StepResult,
  type TerminateMode,
} from "../../../src/protocol/bus/index.js";

export const ORCH: Address = { agent: "orch", thread: "job" };
export const AT = "2026-01-01T00:00:00.000Z";
export const msg = (text: string) => ({ kind: "message", text });

/** What a step commits when `by` approves INTENT: its outcome record and the move to PLAN. */
export function intentApproved(by: Address, reason: string): StepResult {
  return {
    events: [
      { type: "outcome", by, record: { outcome: "APPROVED_INTENT", reason } },
      {
        type: "transition",
        entry: {
          from: "INTENT",
          action: "APPROVED_INTENT",
          to: "PLAN",
          at: AT,
          by: by.agent,
          reason,
        },
      },
    ],
    effects: [],
  };
}

export interface BehaviourOptions {
  /** Policy of every question, or "random". */
  policy?: Policy | "random";
  /** No new sparks once this many threads were asked for. */
  maxSparks?: number;
  /** Unicode in texts, so byte cuts land inside multi-byte characters. */
  unicode?: boolean;
  /** Whether agents close threads (theirs or not); default true. */
  closes?: boolean;
  /** Prefix of escalation ids, so two behaviours on one soup do not collide. */
  ids?: string;
}

/**
 * Agents that send a bit of everything, valid and not: sparks to fresh threads, replies to
 * visible instances, mail to instances they cannot see, sparks onto taken threads, closes of
 * their children and of threads that are not theirs. Routing must sort it out.
 */
export function randomBehaviour(options: BehaviourOptions = {}): Behaviour {
  let sparks = 0;
  let questions = 0;
  const maxSparks = options.maxSparks ?? 30;
  const text = (rng: Rng, base: string) =>
    options.unicode && rng() < 0.5
      ? `${base} — “é” 𝄞 ${pick(rng, 100)}`
      : `${base} ${pick(rng, 100)}`;
  const policyOf = (rng: Rng): Policy => {
    const p = options.policy ?? "random";
    return p === "random" ? (["never", "when_unsure", "always"] as const)[pick(rng, 3)]! : p;
  };
  return {
    send(run, { soup, rng }) {
      const out: Payload[] = [];
      const n = pick(rng, 4);
      for (let i = 0; i < n; i++) {
        const r = rng();
        const content = { kind: "message", text: text(rng, "m") };
        const visible = soup.visibleFrom(run.a);
        const everyone = soup.instances();
        if (r < 0.3 && sparks < maxSparks) {
          sparks += 1;
          out.push({
            kind: "deliver",
            to: {
              agent: `agent${pick(rng, 3)}`,
              thread: `task:${run.a.thread}/${sparks}:${pick(rng, 1e6)}`,
            },
            content,
          });
        } else if (r < 0.6 && visible.length > 0) {
          out.push({ kind: "deliver", to: visible[pick(rng, visible.length)]!, content });
        } else if (r < 0.7 && everyone.length > 0) {
          out.push({ kind: "deliver", to: everyone[pick(rng, everyone.length)]!, content });
        } else if (r < 0.75 && everyone.length > 0) {
          const taken = everyone[pick(rng, everyone.length)]!;
          out.push({ kind: "deliver", to: { agent: "other", thread: taken.thread }, content });
        } else if (options.closes === false) {
          continue;
        } else if (r < 0.9) {
          const kids = soup.children(run.a.thread);
          if (kids.length > 0)
            out.push({ kind: "terminate", thread: kids[pick(rng, kids.length)]! });
        } else if (everyone.length > 0) {
          out.push({ kind: "terminate", thread: everyone[pick(rng, everyone.length)]!.thread });
        }
      }
      return out;
    },
    ask(_run, { rng }) {
      questions += 1;
      return {
        id: `${options.ids ?? "q"}${questions}`,
        question: { kind: "question", text: text(rng, "q") },
        policy: policyOf(rng),
      };
    },
    frame(proxy, { rng }) {
      return { kind: "framed", text: text(rng, `about ${proxy.id}`) };
    },
    reply(_waiting, { rng }) {
      return { kind: "reply", text: text(rng, "r") };
    },
    answer(proxy, { rng }) {
      return rng() < 0.15
        ? { kind: "answer", text: withdrawAnswer(`${proxy.id} not wanted`) }
        : { kind: "answer", text: text(rng, "a") };
    },
  };
}

export interface Boundary {
  /** The whole log after this batch. */
  log: string;
  /** The soup's durable projection at this point. */
  durable: SoupSnapshot;
  /** This batch's effects (the engine runs them after the append). */
  effects: Effect[];
}

/** A soup plus its log, written the way the engine writes it: one batch per step. */
export class World {
  log = "";
  cursor: LogCursor = LOG_START;
  readonly boundaries: Boundary[] = [];
  readonly trace: { kind: "fired"; fired: Fired }[] = [];

  constructor(readonly soup: Soup) {}

  commit(result: StepResult): StepResult {
    if (result.events.length === 0) return result;
    this.log += encodeBatch(result.events, { ...this.cursor, at: AT });
    this.cursor = nextCursor(this.cursor, result.events);
    this.boundaries.push({
      log: this.log,
      durable: this.soup.durable().snapshot(),
      effects: result.effects,
    });
    return result;
  }
}

export interface DriveOptions {
  seed: number;
  steps: number;
  behaviour?: Behaviour;
  fanOutCap?: number;
  /** External interrupts and terminates placed by the "orchestrator" between steps. */
  externals?: boolean;
  allow?: (redex: Redex, soup: Soup) => boolean;
  /** Called after every step (fired or external) with what it produced. */
  after?: (world: World, step: StepResult, fired: Fired | null) => void;
  /** Start from this soup (e.g. a fold) instead of a fresh root. */
  from?: { soup: Soup; log: string; cursor: LogCursor };
}

/** Drives a random job: a root, then `steps` scheduler steps with optional external events. */
export function drive(options: DriveOptions): World {
  const soup = options.from?.soup ?? new Soup({ fanOutCap: options.fanOutCap ?? 3 });
  const world = new World(soup);
  // Commit first: `after?.(…)` would skip evaluating its arguments when there is no hook.
  const emit = (step: StepResult, fired: Fired | null = null) =>
    options.after?.(world, step, fired);
  if (options.from !== undefined) {
    world.log = options.from.log;
    world.cursor = options.from.cursor;
  } else {
    emit(world.commit(soup.root(ORCH, msg("start"))), null);
  }
  const behaviour = options.behaviour ?? randomBehaviour();
  const scheduler = new Scheduler(soup, {
    seed: options.seed,
    behaviour,
    ...(options.allow === undefined ? {} : { allow: options.allow }),
  });
  const ext = mulberry32(options.seed ^ 0x5bd1e995);
  for (let i = 0; i < options.steps; i++) {
    const r = ext();
    if (options.externals && r < 0.05) {
      const live = busyFirst(
        soup,
        ext,
        soup.instances().filter((a) => !soup.isTerminated(a.thread)),
      );
      if (live.length === 0) continue;
      const target = live[pick(ext, live.length)]!;
      emit(world.commit(soup.interrupt(target.thread, msg("intervene"))), null);
      continue;
    }
    if (options.externals && r < 0.09) {
      const live = busyFirst(
        soup,
        ext,
        soup.instances().filter((a) => a.thread !== ORCH.thread && !soup.isTerminated(a.thread)),
      );
      if (live.length === 0) continue;
      const target = live[pick(ext, live.length)]!;
      const mode: TerminateMode = ext() < 0.5 ? "merge" : "drop";
      emit(world.commit(soup.terminate(target.thread, mode)), null);
      continue;
    }
    const fired = scheduler.step();
    if (fired === null) {
      // At rest (quiescent): the orchestrator reads the disk and nudges its own instance.
      if (soup.isTerminated(ORCH.thread) || soup.stateOf(ORCH) === null) break;
      emit(world.commit(soup.interrupt(ORCH.thread, msg("nudge"))), null);
      continue;
    }
    world.trace.push({ kind: "fired", fired });
    emit(world.commit(fired.result), fired);
  }
  return world;
}

/** Half the time, only the instances mid-turn: so [interrupt] and [term-run] get exercised. */
function busyFirst(soup: Soup, rng: Rng, all: Address[]): Address[] {
  const busy = all.filter((a) => soup.stateOf(a) !== "Idle");
  return busy.length > 0 && rng() < 0.5 ? busy : all;
}
