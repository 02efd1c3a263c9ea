// The fan-out simulation (tasks in runs of their own): random jobs under random faults, each
// checked for every invariant after it ends.
// `CFA_SIM_TRIALS=200 npx vitest run test/integration/engine/fanout` runs 200; `npm test` a few.
// What is real and what is simulated: docs/contributing.md, "Things that bite".

import { describe, expect, it } from "vitest";
import {
  prng,
  runTrial,
  type InjectedFault,
  type TrialFaults,
} from "../../../support/sim/run-trial.js";
import type { Scenario } from "../../../support/sim/sim-job.js";

const MINUTE = 60_000;
const TRIALS = Number(process.env.CFA_SIM_TRIALS ?? 4);

function scenarioFor(seed: number): { scenario: Scenario; faults: TrialFaults } {
  const r = prng(seed * 7919 + 1);
  const n = 1 + Math.floor(r() * 3);
  const tasks = Array.from({ length: n }, (_, i) => ({
    id: `t${i + 1}`,
    turns: 1 + Math.floor(r() * 3),
    callsPerTurn: 1 + Math.floor(r() * 2),
    callMs: Math.floor((0.5 + r() * 3) * MINUTE),
    commandMs: Math.floor(r() * 10 * MINUTE),
  }));
  const callUsd = 0.1;
  const scenario: Scenario = {
    tasks,
    mode: (["per-task", "per-task", "auto", "single"] as const)[Math.floor(r() * 4)]!,
    callUsd,
    allowanceUsd: 4 * Math.max(...tasks.map((t) => t.turns * t.callsPerTurn)) * callUsd,
    stopMarginMs: 5 * MINUTE,
    // Short limits in some trials, so runs stop at the margin and continue in a new run.
    leadTimeLimitMs: (r() < 0.3 ? 30 : 340) * MINUTE,
    taskTimeLimitMs: (r() < 0.3 ? 20 : 340) * MINUTE,
    foldMs: 10_000,
  };
  const faults: TrialFaults = {
    kill: r() * 0.3,
    loseRunner: 0.3,
    lostWake: r() * 0.3,
    duplicateWake: r() * 0.3,
    lostAnswer: r() * 0.1,
    killMidPush: r() * 0.03,
    withdraw: r() < 0.25,
    noTaskJob: r() < 0.1,
  };
  return { scenario, faults };
}

describe("fan-out to runners, simulated: every invariant after every trial", () => {
  it(
    `${TRIALS} random trials end DONE or WITHDRAWN with each turn folded once, one writer per branch, verified merges, bounded loss and cost`,
    async () => {
      const failures: string[] = [];
      const ends: Record<string, number> = {};
      let kills = 0;
      let overHttp = 0;
      let checked = 0;
      const injected: Partial<Record<InjectedFault, number>> = {};
      const started = Date.now();
      const first = Number(process.env.CFA_SIM_FIRST ?? 1);
      const seeds = Array.from({ length: TRIALS }, (_, i) => first + i);
      // Trials wait on git processes more than they compute: a few at once.
      const parallel = Number(process.env.CFA_SIM_PARALLEL ?? 3);
      const one = async (seed: number) => {
        const { scenario, faults } = scenarioFor(seed);
        // Every few trials over git http-backend, each run with its own token.
        const http = process.env.CFA_SIM_HTTP === "1" || seed % 4 === 0;
        const result = await runTrial(seed, scenario, faults, { http });
        if (process.env.CFA_SIM_PROGRESS)
          console.log(
            seed,
            http ? "http" : "file",
            scenario.mode,
            result.end,
            `${result.runs} runs`,
            JSON.stringify(result.injected),
            result.violations.join("; "),
          );
        ends[result.end] = (ends[result.end] ?? 0) + 1;
        kills += result.kills;
        if (http) overHttp++;
        if (result.checked) checked++;
        for (const [k, n] of Object.entries(result.injected) as [InjectedFault, number][])
          injected[k] = (injected[k] ?? 0) + n;
        if (result.violations.length > 0)
          failures.push(
            `seed ${seed} (${scenario.mode}, ${JSON.stringify(faults)}): ${result.violations.join("; ")}`,
          );
      };
      for (let i = 0; i < seeds.length; i += parallel)
        await Promise.all(seeds.slice(i, i + parallel).map(one));
      console.log(
        `fan-out simulation: ${TRIALS} trials (${overHttp} over http with a token per run), ` +
          `${checked} checked for every invariant, ends ${JSON.stringify(ends)}, ` +
          `faults drawn ${JSON.stringify(injected)}, ${kills} runs killed, ` +
          `${failures.length} failed, ${Math.round((Date.now() - started) / 1000)} s`,
      );
      expect(failures).toEqual([]);
    },
    Math.max(600_000, TRIALS * 60_000),
  );
});
