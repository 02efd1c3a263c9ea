// What each role asks of the model per request: an output budget sized for
// thinking, an effort, and the cache lifetime of its prefix.
//
// - Budget: the current models think by default and "thinking tokens count toward your
//   max_tokens limit" (@anthropic-ai/sdk 1.12.0, MessageCreateParams.thinking;
//   https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking), so 8,192 left a
//   lead that thought hard no room for its tool call. Leads and workers, which write whole
//   artifacts and files through tool calls after thinking, get 32,000; above 21,333 the
//   adapter streams, as the SDK requires (messages-model.ts). A response still cut at the
//   budget is retried with twice the budget, up to the model's own limit (stop-verdict.ts).
// - Effort (`output_config.effort`, https://platform.claude.com/docs/en/build-with-claude/effort):
//   high where judgement shapes the job (leads, workers), medium to check and to relay
//   (verifier, proxy).
// - Cache lifetime: "1h" for the leads, the instances that wait on a person (every gate, every
//   question) and on their tasks, for longer than the 5-minute lifetime; "5m" for the others,
//   whose requests follow each other within seconds. The arithmetic is in cacheLifetimeFor.
//
// `.github/cfa.yml` may override budget and effort per role (`output:`), and `limits.maxTokens`
// the budget of every role.

import type { CacheLifetime, Effort } from "../../ports/model.js";

export interface OutputSettings {
  maxTokens?: number | undefined;
  effort?: Effort | undefined;
}

export interface OutputPlan {
  maxTokens: number;
  effort: Effort;
  cacheLifetime: CacheLifetime;
}

const LEAD = { maxTokens: 32_000, effort: "high" } as const;

/** The defaults per role name; an unknown role gets the worker's. */
export const ROLE_OUTPUT: Readonly<Record<string, { maxTokens: number; effort: Effort }>> = {
  "intent-lead": LEAD,
  "project-lead": LEAD,
  worker: { maxTokens: 32_000, effort: "high" },
  verifier: { maxTokens: 16_000, effort: "medium" },
  proxy: { maxTokens: 8_000, effort: "medium" },
};

const LEADS = new Set(["intent-lead", "project-lead"]);

/**
 * The plan for a role's requests: the role's defaults, then the configured overrides, the
 * budget capped at what the model takes.
 */
export function outputPlan(
  role: string,
  maxOutput: number,
  overrides: OutputSettings = {},
): OutputPlan {
  const defaults = ROLE_OUTPUT[role] ?? ROLE_OUTPUT.worker!;
  const wanted = overrides.maxTokens ?? defaults.maxTokens;
  return {
    maxTokens: Math.max(1, Math.min(wanted, maxOutput)),
    effort: overrides.effort ?? defaults.effort,
    cacheLifetime: cacheLifetimeFor(role),
  };
}

/**
 * Whether a role's cached prefix should live an hour. Prices per million input
 * tokens, as multiples of the base input price p (https://platform.claude.com/docs/en/build-with-claude/prompt-caching,
 * "Pricing"): a 5-minute write costs 1.25p, a 1-hour write 2p, a hit 0.1p.
 *
 * A conversation of prefix P built from increments d1 + … + dn = P: with 5-minute writes each
 * increment is written once (1.25P in all) — but when the instance then waits longer than 5
 * minutes, the next request writes the whole prefix again (1.25P) instead of reading it
 * (0.1P): 1.15P lost per long wait. With 1-hour writes the increments cost 2P (0.75P more) and
 * a wait under an hour costs nothing. So one long wait per prefix already pays
 * (0.75P < 1.15P), and a lead waits at least once per phase (its gate) and after each
 * dispatch (its tasks run for minutes). Workers, verifiers and proxies answer within seconds
 * of each request and never wait on a person themselves: for them the 0.75 surcharge would
 * buy nothing. `npm run bench` measures both on the demo job.
 */
export function cacheLifetimeFor(role: string): CacheLifetime {
  return LEADS.has(role) ? "1h" : "5m";
}
