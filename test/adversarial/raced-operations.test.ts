// Adversarial class "raced operations" (at least 9,600, the floor the suite promises). The boundary
// check is made at one moment and the file is used at the next; an agent's process can swap a
// folder or a file for a link in between. Here a racer swaps them as fast as it can while thousands
// of file operations — the agents' tools and the engine's own helpers — run against the same paths.
// Each operation either works inside the workspace or is refused; none may read a byte from outside
// or create, change or remove anything there. Races are real: the racer runs on the main thread
// between event-loop turns while the operations' syscalls run on libuv's thread pool, so swaps land
// in the middle of them.
//
// Without /proc (path-based lookups) the same races run against reads only: every change is refused
// there before it is made (a refused write once left files outside), which the last block checks
// under the race.

import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appendFile,
  editFile,
  listFiles,
  readFile,
  removeEntry,
  writeFile,
} from "../../src/agents/fs/index.js";
import { appendText, readText, writeText } from "../../src/engine/tree/files.js";
import { cases } from "../support/adversarial/count.js";
import { snapshot } from "../support/adversarial/outside-snapshot.js";

const INSIDE = "inside\n";
const OUTSIDE = "OUTSIDE-must-never-be-read\n";

let base: string;
let root: string;
let outside: string;
let before: Map<string, string>;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "cfa-race-"));
  root = path.join(base, "ws");
  outside = path.join(base, "outside");
  mkdirSync(path.join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  for (const name of ["file.txt", "log.txt", "edit.txt"]) {
    writeFileSync(path.join(root, "sub", name), INSIDE);
    writeFileSync(path.join(outside, name), OUTSIDE);
  }
  before = snapshot(outside);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A way an agent's process swaps something under the engine, one step per call. */
interface Race {
  name: string;
  step(): void;
  restore(): void;
}

const sub = () => path.join(root, "sub");
const subReal = () => path.join(root, "sub.real");
/**
 * `name` in the subfolder flips at random, step by step, between the file inside and a link
 * (`link(target, file)`: symbolic or hard) to the file of that name outside.
 */
function flipping(what: string, name: string, link: (target: string, file: string) => void): Race {
  const file = () => path.join(sub(), name);
  const inside = () => {
    rmSync(file(), { force: true });
    writeFileSync(file(), INSIDE);
  };
  return {
    name: what,
    step() {
      if (Math.random() < 0.5) {
        // rm never follows a link: it removes the link, or the file, or nothing.
        rmSync(file(), { force: true });
        link(path.join(outside, name), file());
      } else inside();
    },
    restore: inside,
  };
}

const RACES: Race[] = [
  {
    name: "the folder flips to a link outside",
    step() {
      if (existsSync(subReal())) {
        unlinkSync(sub());
        renameSync(subReal(), sub());
      } else {
        renameSync(sub(), subReal());
        symlinkSync(outside, sub());
      }
    },
    restore() {
      if (existsSync(subReal())) {
        // The link, or a folder an operation made at `sub` in the instant the link was
        // away (a write's parents, inside the workspace): rm never follows the link.
        rmSync(sub(), { force: true, recursive: true });
        renameSync(subReal(), sub());
      }
    },
  },
  flipping("the file flips to a link outside", "file.txt", symlinkSync),
  flipping("the file flips to a hard link of a file outside", "log.txt", linkSync),
  {
    name: "a missing folder appears as a link outside",
    step() {
      const fresh = path.join(root, "fresh");
      if (existsSync(fresh) || isLink(fresh)) rmSync(fresh, { recursive: true, force: true });
      else symlinkSync(outside, fresh);
    },
    restore() {
      rmSync(path.join(root, "fresh"), { recursive: true, force: true });
    },
  },
];

function isLink(target: string): boolean {
  try {
    return readdirSync(path.dirname(target), { withFileTypes: true }).some(
      (e) => e.name === path.basename(target) && e.isSymbolicLink(),
    );
  } catch {
    return false;
  }
}

type Outcome = "done" | "refused";

/** An operation on the raced paths; returns what it read, if it reads. */
interface Operation {
  name: string;
  writes: boolean;
  run(i: number, pathOnly: boolean): Promise<string | null>;
}

const seam = (pathOnly: boolean) => ({ seam: { pathOnly } });
const OPERATIONS: Operation[] = [
  {
    name: "read_file",
    writes: false,
    run: async (_i, p) => (await readFile(root, "sub/file.txt", seam(p))).content,
  },
  {
    name: "read_file (hard-link race)",
    writes: false,
    run: async (_i, p) => (await readFile(root, "sub/log.txt", seam(p))).content,
  },
  {
    name: "list_files",
    writes: false,
    run: async (_i, p) =>
      (await listFiles(root, "sub", seam(p))).entries.map((e) => e.path).join(","),
  },
  {
    name: "engine readText",
    writes: false,
    run: async () => await readText(root, "sub/file.txt"),
  },
  {
    name: "write_file",
    writes: true,
    run: async (i, p) => (await writeFile(root, `sub/new-${i}.txt`, INSIDE, seam(p)), null),
  },
  {
    name: "write_file into a missing folder",
    writes: true,
    run: async (i, p) => (await writeFile(root, `fresh/new-${i}.txt`, INSIDE, seam(p)), null),
  },
  {
    name: "append",
    writes: true,
    run: async (_i, p) => (await appendFile(root, "sub/log.txt", "x", seam(p)), null),
  },
  {
    name: "edit_file",
    writes: true,
    run: async (_i, p) => (await editFile(root, "sub/edit.txt", "inside", "inside", seam(p)), null),
  },
  {
    name: "remove",
    writes: true,
    run: async (i, p) => (await removeEntry(root, `sub/new-${i - 1}.txt`, seam(p)), null),
  },
  {
    name: "engine writeText",
    writes: true,
    run: async (i) => (await writeText(root, `sub/engine-${i}.txt`, INSIDE), null),
  },
  {
    name: "engine appendText",
    writes: true,
    run: async () => (await appendText(root, "sub/log.txt", "y"), null),
  },
  {
    name: "engine writeText into a missing folder",
    writes: true,
    run: async (i) => (await writeText(root, `fresh/engine-${i}.txt`, INSIDE), null),
  },
];

const ROUNDS = 200;
// Operations in flight at once: enough to keep libuv's thread pool full while the racer
// swaps between them.
const BATCH = Number(process.env.CFA_RACE_BATCH ?? 48);
const SPIN = process.env.CFA_RACE_SPIN === "1";
const TOTAL = RACES.length * OPERATIONS.length * ROUNDS;

/** Runs `ops` while `race` swaps as often as the event loop lets it. */
async function raced(race: Race, ops: (() => Promise<Outcome>)[]): Promise<Outcome[]> {
  let running = true;
  const racer = (): void => {
    if (!running) return;
    try {
      race.step();
    } catch {
      // a swap that lost its own race: the next one goes on
    }
    // After every swap, the operations in flight get the loop (and the thread pool) back:
    // the racer swaps between their syscalls without starving them of the CPU.
    if (SPIN) setImmediate(racer);
    else setTimeout(racer, 0);
  };
  setImmediate(racer);
  try {
    const outcomes: Outcome[] = [];
    // A few at a time: enough to fill the thread pool, few enough to stay fast.
    for (let i = 0; i < ops.length; i += BATCH) {
      outcomes.push(...(await Promise.all(ops.slice(i, i + BATCH).map((op) => op()))));
    }
    return outcomes;
  } finally {
    running = false;
    race.restore();
  }
}

const allowedErrors = new Set(["BoundaryError", "FileToolError", "RecordTamperedError"]);
const reads: string[] = [];
const unexpected: string[] = [];

function attempt(op: Operation, i: number, pathOnly: boolean): () => Promise<Outcome> {
  return async () => {
    try {
      const text = await op.run(i, pathOnly);
      if (text !== null) reads.push(text);
      return "done";
    } catch (error) {
      const name = (error as Error).name;
      if (!allowedErrors.has(name))
        unexpected.push(`${op.name}: ${name}: ${(error as Error).message}`);
      return "refused";
    }
  };
}

describe(cases("raced operations", TOTAL, "operations"), () => {
  it(`tries at least the 9,600 the suite promises (${TOTAL})`, () => {
    expect(TOTAL).toBeGreaterThanOrEqual(9600);
  });

  const tally: Record<Outcome, number> = { done: 0, refused: 0 };
  it.each(RACES)("$name: every operation works inside or is refused", async (race) => {
    const ops = OPERATIONS.flatMap((op) =>
      Array.from({ length: ROUNDS }, (_, i) => attempt(op, i, false)),
    );
    for (const outcome of await raced(race, ops)) tally[outcome] += 1;
    expect(unexpected).toEqual([]);
    expect(reads.filter((text) => text.includes("OUTSIDE"))).toEqual([]);
    expect(snapshot(outside)).toEqual(before);
  });

  it("both outcomes happened: the races were real", () => {
    // One line for the tried / refused report (the split varies run to run).
    console.info(
      `raced operations: ${TOTAL} tried, ${tally.refused} refused, ${tally.done} worked inside, 0 escaped`,
    );
    expect(tally.done).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });
});

describe(
  cases("raced operations without /proc (path lookups)", RACES.length * 4 * 50, "operations"),
  () => {
    const pathOps = OPERATIONS.filter((op) =>
      ["read_file", "list_files", "write_file", "write_file into a missing folder"].includes(
        op.name,
      ),
    );
    it.each(RACES)("$name: reads are checked, changes refused before made", async (race) => {
      const ops = pathOps.flatMap((op) =>
        Array.from({ length: 50 }, (_, i) => attempt(op, 10_000 + i, true)),
      );
      const outcomes = await raced(race, ops);
      expect(unexpected).toEqual([]);
      expect(reads.filter((text) => text.includes("OUTSIDE"))).toEqual([]);
      expect(snapshot(outside)).toEqual(before);
      // Every write was refused: nothing was created anywhere by them.
      expect(outcomes.length).toBe(ops.length);
      expect(
        readdirSync(path.join(root, "sub")).filter((n) => /^new-1\d{4}\.txt$/u.test(n)),
      ).toEqual([]);
    });
  },
);
