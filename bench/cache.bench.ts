// The cache-read share of input tokens over the demo job's requests, as the real
// adapter builds them (cfa driving recordings/demo.json through the fake Messages API,
// test/support/fake-messages-api), priced by a model of the documented prompt cache
// (cache-model.ts). Once with the person answering at once, once with a 10-minute pause at
// each gate and question; each also with every lifetime forced to 5 minutes, to show what the
// leads' 1-hour lifetime buys (src/agents/loop/output-plan.ts cacheLifetimeFor). A request is
// taken to follow the previous one after CALL_SECONDS; parallel tasks are laid end to end,
// which only lengthens the gaps.
//
// The `ceiling` column is the most any cache could read of these requests: each distinct
// prefix block must be processed once (written or sent uncached), so a job of nine short
// conversations, each opening with its own role's tools and system prompt, cannot read more.

import { PromptCache, type CacheUsage } from "./cache-model.js";
import type { BenchResult } from "./bench-result.js";
import { runDemoOverHttp } from "../test/support/fake-messages-api/demo-run.js";

const CALL_SECONDS = 20;
const PAUSE_SECONDS = 10 * 60;
/** Sonnet 5.5 per million tokens: input, 5-minute write, 1-hour write (2x input), read. */
const PRICE = { input: 2, write5m: 2.5, write1h: 4, read: 0.1 };

interface Outcome {
  share: number;
  /** The most any caching could read of these requests (cache-model.ts ceiling). */
  ceiling: number;
  usd: number;
  usage: CacheUsage;
}

function replay(bodies: Record<string, unknown>[], pauses: number[], pauseMs: number): Outcome {
  const cache = new PromptCache();
  const total: CacheUsage = { read: 0, write5m: 0, write1h: 0, uncached: 0 };
  let at = 0;
  bodies.forEach((body, i) => {
    at += CALL_SECONDS * 1000;
    if (pauses.includes(i)) at += pauseMs;
    const u = cache.send(body, at);
    total.read += u.read;
    total.write5m += u.write5m;
    total.write1h += u.write1h;
    total.uncached += u.uncached;
  });
  const input = total.read + total.write5m + total.write1h + total.uncached;
  const usd =
    (total.uncached * PRICE.input +
      total.write5m * PRICE.write5m +
      total.write1h * PRICE.write1h +
      total.read * PRICE.read) /
    1e6;
  return { share: total.read / input, ceiling: cache.ceiling(input), usd, usage: total };
}

/** The same requests with every 1-hour marker made a 5-minute one. */
function fiveMinutesOnly(body: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body).replaceAll(',"ttl":"1h"', "")) as Record<string, unknown>;
}

export async function run(): Promise<BenchResult[]> {
  const demo = await runDemoOverHttp();
  try {
    if (demo.state.state !== "DONE" || demo.api.conformance.problems.length > 0) {
      throw new Error(
        `cache bench: the demo did not run clean: ${demo.api.conformance.problems.join("; ")}`,
      );
    }
    const bodies = demo.server.requests.map((r) => r.body!);
    const short = bodies.map(fiveMinutesOnly);
    const rows: BenchResult[] = [];
    for (const [label, pauseMs] of [
      ["no pause", 0],
      ["10-min pause at each gate", PAUSE_SECONDS * 1000],
    ] as const) {
      const built = replay(bodies, demo.pauses, pauseMs);
      const five = replay(short, demo.pauses, pauseMs);
      rows.push({
        name: `cache-read share of input tokens, demo job (${label})`,
        unit: "%",
        median: built.share * 100,
        runs: 1,
        extra: {
          requests: bodies.length,
          "ceiling %": Number((built.ceiling * 100).toFixed(1)),
          pauses: pauseMs === 0 ? 0 : demo.pauses.length,
          usd: Number(built.usd.toFixed(4)),
          "all-5m %": Number((five.share * 100).toFixed(1)),
          "all-5m usd": Number(five.usd.toFixed(4)),
        },
      });
    }
    return rows;
  } finally {
    await demo.cleanup();
  }
}
