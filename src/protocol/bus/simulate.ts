// Nondeterminism as an input (rules fire wherever the molecules they consume are disjoint:
// docs/protocol.md#message-soup). The scheduler repeatedly picks one enabled redex with a seeded
// PRNG and fires it, asking the behaviour functions for the choices rules carry; a seed replays
// exactly.

import type { StepResult } from "./effects.js";
import type {
  AskHumanMolecule,
  Content,
  Payload,
  ProxyMolecule,
  RunMolecule,
} from "./molecules.js";
import { mulberry32, pick, type Rng } from "./prng.js";
import type { Redex, RuleInputs } from "./redex.js";
import type { Soup } from "./soup.js";

export interface BehaviourContext {
  soup: Soup;
  rng: Rng;
  /** Index of the step being taken. */
  step: number;
}

/** The agents', the proxy's and the human's choices, opaque to the rules. */
export interface Behaviour {
  /** [send-step]: the broadcast a Run ends with. */
  send(run: RunMolecule, ctx: BehaviourContext): Payload[];
  /** [ask-step]: the question a Run ends with (its id must be fresh). */
  ask(run: RunMolecule, ctx: BehaviourContext): RuleInputs["ask-step"];
  /** [escalate]: the proxy's framing of the question for the human. */
  frame(proxy: ProxyMolecule, ctx: BehaviourContext): Content;
  /** [human-reply]: the human's reply. */
  reply(waiting: AskHumanMolecule, ctx: BehaviourContext): Content;
  /** [respond]: the proxy's answer. */
  answer(proxy: ProxyMolecule, ctx: BehaviourContext): Content;
}

export interface Fired {
  step: number;
  redex: Redex;
  result: StepResult;
}

export interface SchedulerOptions {
  seed: number;
  behaviour: Behaviour;
  /** Which enabled redexes may be picked (e.g. no new questions after a budget). */
  allow?: (redex: Redex, soup: Soup) => boolean;
}

export class Scheduler {
  readonly rng: Rng;
  private steps = 0;

  constructor(
    readonly soup: Soup,
    private readonly options: SchedulerOptions,
  ) {
    this.rng = mulberry32(options.seed);
  }

  /** Fires one allowed enabled redex, or returns null when none is. */
  step(): Fired | null {
    const allow = this.options.allow;
    const enabled = this.soup.enabled();
    const choices = allow === undefined ? enabled : enabled.filter((r) => allow(r, this.soup));
    if (choices.length === 0) return null;
    const redex = choices[pick(this.rng, choices.length)] as Redex;
    const ctx: BehaviourContext = { soup: this.soup, rng: this.rng, step: this.steps };
    const result = this.soup.fire(redex, inputFor(redex, this.options.behaviour, ctx) as never);
    return { step: this.steps++, redex, result };
  }

  /** Steps until nothing is allowed or `maxSteps` have fired. */
  run(maxSteps: number, onStep?: (fired: Fired) => void): { fired: number; quiescent: boolean } {
    let fired = 0;
    while (fired < maxSteps) {
      const f = this.step();
      if (f === null) return { fired, quiescent: true };
      fired += 1;
      onStep?.(f);
    }
    return { fired, quiescent: false };
  }
}

export interface SimulateOptions extends SchedulerOptions {
  maxSteps: number;
  onStep?: (fired: Fired) => void;
}

/** Runs a scheduler over `soup` (mutating it) and returns every step taken. */
export function simulate(
  soup: Soup,
  options: SimulateOptions,
): { fired: Fired[]; quiescent: boolean } {
  const scheduler = new Scheduler(soup, options);
  const fired: Fired[] = [];
  const { quiescent } = scheduler.run(options.maxSteps, (f) => {
    fired.push(f);
    options.onStep?.(f);
  });
  return { fired, quiescent };
}

function inputFor(redex: Redex, b: Behaviour, ctx: BehaviourContext): unknown {
  const m = redex.molecules[0];
  switch (redex.rule) {
    case "send-step":
      return m?.kind === "Run" ? b.send(m, ctx) : undefined;
    case "ask-step":
      return m?.kind === "Run" ? b.ask(m, ctx) : undefined;
    case "escalate":
      return m?.kind === "Proxy" ? b.frame(m, ctx) : undefined;
    case "human-reply":
      return m?.kind === "AskHuman" ? b.reply(m, ctx) : undefined;
    case "respond":
      return m?.kind === "Proxy" ? b.answer(m, ctx) : undefined;
    default:
      return undefined;
  }
}
