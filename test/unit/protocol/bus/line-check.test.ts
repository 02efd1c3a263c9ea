// The fold's fast path (so that folding a long log costs little more than parsing it) may
// change how fast a line is read, never what is read: every line it accepts, the zod schema
// accepts unchanged; every line the schema refuses, it refuses. Checked on real logs of
// random jobs and on their lines broken at random, against the schemas of events.ts (the
// reference the fast path is written from).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LINE_SCHEMAS, isBusEventType } from "../../../../src/protocol/bus/index.js";
import { checkLine } from "../../../../src/protocol/bus/line-check.js";
import { drive } from "../../../support/protocol/bus-world.js";

type Json = unknown;

function linesOf(seed: number): Json[] {
  const world = drive({ seed, steps: 120, externals: true });
  return world.log
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);
}

/** Every path to a value inside `v`, parents before children. */
function paths(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (typeof v === "object" && v !== null)
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

const REPLACEMENTS: Json[] = [null, 0, -1, 1.5, "", "x", true, [], {}, { kind: "deliver" }];

/** `v` with one change at `path`: a value replaced, a key removed, or a key added. */
function broken(v: Json, path: (string | number)[], how: number, value: Json): Json {
  const copy = structuredClone(v) as Record<string | number, Json>;
  if (path.length === 0) return how === 2 ? { ...copy, extra: value } : value;
  let parent = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (how === 0) parent[last] = value;
  else if (how === 1 && !Array.isArray(parent)) delete parent[last];
  else {
    const target = parent[last];
    if (typeof target === "object" && target !== null && !Array.isArray(target)) {
      (target as Record<string, Json>).stray = value;
    } else parent[last] = value;
  }
  return copy;
}

function zod(json: Json) {
  const type = (json as { type?: unknown } | null)?.type;
  if (!isBusEventType(type)) return null;
  return LINE_SCHEMAS[type].safeParse(json);
}

describe("the fold's fast line check agrees with the line schemas", () => {
  it("accepts every line a random job's log holds, each exactly as zod returns it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fffffff }), (seed) => {
        for (const line of linesOf(seed)) {
          const fast = checkLine(line);
          const slow = zod(line);
          expect(slow?.success).toBe(true);
          // Audit lines (outcome, transition, verdict) are left to zod; the engine's
          // own lines all take the fast path.
          expect(fast).toBe(line);
          expect(fast).toEqual(slow?.data);
        }
      }),
      { numRuns: 20 },
    );
  });

  it("never accepts a broken line zod refuses or would change", () => {
    const lines = [1, 2, 3, 4, 5].flatMap(linesOf);
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(...REPLACEMENTS),
        (pickLine, pickPath, how, value) => {
          const line = lines[pickLine % lines.length];
          // The type too: the check reads it from the line, as zod does.
          const all = paths(line);
          const path = all[pickPath % all.length]!;
          const changed = broken(line, path, how, value);
          const fast = checkLine(changed);
          const slow = zod(changed);
          if (fast !== null) {
            expect(slow?.success, JSON.stringify(changed)).toBe(true);
            expect(slow?.data).toEqual(changed);
          }
          if (slow?.success === false) expect(fast).toBeNull();
        },
      ),
      { numRuns: 3000 },
    );
  });
});
