// The response journal, so that no call is paid twice and every cap sees every call.
// Every model response is appended here the moment it arrives, priced and numbered, before
// any of its tool calls run. A turn that is redone — a process died mid-turn, or the turns in flight
// were given up because the API went away — sends the same requests again, and each one that
// matches a journalled request byte for byte gets the journalled response instead of a new
// call: cache-only replay (docs/protocol.md#recorded-decisions), applied to model calls.
//
// Where it lives, and why there: in the job's area (`<workRoot>/<N>/responses.jsonl`), beside
// the worktrees and outside all of them. No agent can write it: the file tools stop at the
// workspace root and the sandbox binds the workspace alone writable; `resetToHead` and
// `git clean` never see it. (Design (b), a checkpoint commit per model call, would push the
// job branch ~60 times a turn and commit a turn's half-done files; it was not chosen.)
//
// Accounting exactly once: each entry carries the call's number (`engine.calls + 1` when it
// was charged). The committed state.json says how many calls it has accounted; an entry
// numbered above that was paid after the last commit, so the next wake charges it then —
// and never again, since the number moves with the charge in the same record.
//
// Across runners: a GitHub runner's area dies with it. When a wake ends gracefully with
// turns unapplied (the API unavailable), the entries ride in state.json (`engine.journal`),
// which only the engine writes, and the next runner takes them back into its area.

import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import * as z from "zod";
import type { ModelRequest, ModelResponse } from "../../ports/model.js";
import { canonicalLine } from "../../protocol/canonical-json.js";
import { ModelUsageSchema, StopReasonSchema } from "../../agents/transcript/message-schema.js";
import { createSerialQueue } from "../../git/serial-queue.js";

export const JournalEntrySchema = z.object({
  /** The call's number among the job's charged calls (engine.calls after charging it). */
  seq: z.number().int().positive(),
  /** `agent@thread` of the instance that asked. */
  instance: z.string().min(1),
  /** requestDigest() of the request it answered. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** USD charged for it (priced alone: a long-context price band applies per response). */
  costUsd: z.number().nonnegative(),
  at: z.string(),
  response: z.object({
    // Blocks exactly as the adapter returned them (their shape is the Model port's).
    content: z.array(z.looseObject({ type: z.string() })),
    stopReason: StopReasonSchema,
    usage: ModelUsageSchema,
    model: z.string(),
  }),
});
export type JournalEntry = Omit<z.infer<typeof JournalEntrySchema>, "response"> & {
  response: ModelResponse;
};

/**
 * What identifies a request: everything the model is sent. Canonical key order here only
 * (it is compared, never sent): the request on the wire is untouched.
 */
export function requestDigest(request: ModelRequest): string {
  return createHash("sha256").update(canonicalLine(request)).digest("hex");
}

export function journalPath(area: string): string {
  return join(area, "responses.jsonl");
}

export class ResponseJournal {
  private readonly entries: JournalEntry[] = [];
  /** Unreplayed entries by digest, oldest first. */
  private readonly pool = new Map<string, JournalEntry[]>();
  private readonly lock = createSerialQueue();
  /** Told the whole journal after every change (journal-branch.ts: it outlives the runner). */
  mirror: ((lines: readonly string[], options?: { later?: boolean }) => void) | null = null;

  private constructor(readonly file: string) {}

  /**
   * Opens the area's journal, adds the entries carried in state.json (from another runner),
   * and returns it with the entries the job record has not accounted yet.
   */
  static async open(
    area: string,
    carried: readonly string[],
    onBadLine: (problem: string) => void,
  ): Promise<ResponseJournal> {
    const journal = new ResponseJournal(journalPath(area));
    const text = await readFile(journal.file, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    const seen = new Set<string>();
    const take = (raw: unknown, where: string) => {
      const parsed = JournalEntrySchema.safeParse(raw);
      if (!parsed.success) return onBadLine(`${where}: ${parsed.error.issues[0]?.message}`);
      // The raw value, not zod's copy: the response keeps its keys in the order received.
      const entry = raw as JournalEntry;
      const key = `${entry.seq} ${entry.digest}`;
      if (seen.has(key)) return;
      seen.add(key);
      journal.entries.push(entry);
    };
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        take(JSON.parse(line), `${journal.file}:${i + 1}`);
      } catch {
        // The last line of a process that died mid-append: that response was never used.
        onBadLine(`${journal.file}:${i + 1}: not JSON (a torn write)`);
      }
    });
    const before = journal.entries.length;
    carried.forEach((carriedLine, i) => {
      try {
        take(JSON.parse(carriedLine), `state.json engine.journal[${i}]`);
      } catch {
        onBadLine(`state.json engine.journal[${i}]: not JSON`);
      }
    });
    const fromState = journal.entries.length - before;
    journal.entries.sort((a, b) => a.seq - b.seq);
    for (const entry of journal.entries) journal.addToPool(entry);
    if (fromState > 0) await journal.rewrite();
    return journal;
  }

  /** Entries numbered above `accounted`: paid, not yet in the job record. */
  unaccounted(accounted: number): JournalEntry[] {
    return this.entries.filter((e) => e.seq > accounted);
  }

  /** The response this request got before, taken (each replays once), or null. */
  take(request: ModelRequest): JournalEntry | null {
    const digest = requestDigest(request);
    const queue = this.pool.get(digest);
    const entry = queue?.shift() ?? null;
    if (queue?.length === 0) this.pool.delete(digest);
    return entry;
  }

  /** Appends a response the moment it is charged (one line, one write, serialised). */
  record(entry: JournalEntry): Promise<void> {
    this.entries.push(entry);
    this.mirror?.(this.carry());
    return this.lock.run(async () => {
      await mkdir(dirname(this.file), { recursive: true });
      await appendFile(this.file, `${line(entry)}\n`);
    });
  }

  /**
   * Everything kept, one JSON text per entry, to carry in state.json when a wake ends with
   * turns unapplied: strings, so the record's canonical key order cannot reorder a response.
   */
  carry(): string[] {
    return this.entries.map(line);
  }

  /**
   * Forgets the entries of these instances (`agent@thread`): called once a commit accounts
   * their calls and their turns are applied or dropped, so none of them can be redone.
   */
  forget(instances: readonly string[]): Promise<void> {
    const gone = new Set(instances);
    const kept = this.entries.filter((e) => !gone.has(e.instance));
    if (kept.length === this.entries.length) return Promise.resolve();
    this.entries.length = 0;
    this.entries.push(...kept);
    // What is forgotten leaves the branch with its next push (journal-branch.ts `later`).
    this.mirror?.(this.carry(), { later: true });
    for (const [digest, queue] of [...this.pool]) {
      const left = queue.filter((e) => !gone.has(e.instance));
      if (left.length === 0) this.pool.delete(digest);
      else this.pool.set(digest, left);
    }
    return this.rewrite();
  }

  /**
   * Forgets every entry: called only when nothing is in flight and every turn that made a
   * call is committed (with its calls accounted), so none can be redone.
   */
  clear(): Promise<void> {
    this.entries.length = 0;
    this.pool.clear();
    this.mirror?.([], { later: true });
    return this.lock.run(() => rm(this.file, { force: true }));
  }

  private addToPool(entry: JournalEntry): void {
    const queue = this.pool.get(entry.digest);
    if (queue) queue.push(entry);
    else this.pool.set(entry.digest, [entry]);
  }

  private rewrite(): Promise<void> {
    return this.lock.run(async () => {
      await mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp-${process.pid}`;
      await writeFile(tmp, this.entries.map((e) => `${line(e)}\n`).join(""));
      await rename(tmp, this.file);
    });
  }
}

/**
 * Plain JSON, not canonical: a replayed response must be the response as received, tool inputs in
 * their key order, or the redone turn would re-send it altered.
 */
function line(entry: JournalEntry): string {
  return JSON.stringify(entry);
}
