// What the engine's records in a worktree must hold. Everything under `.cfa/`
// is the engine's — state.json, bus.jsonl, transcripts, outcome.json, the proxy's memory,
// other jobs' records — except the phase artifacts a lead writes. The file tools refuse to
// write there, but an agent's commands can write anything in their workspace; so the engine
// keeps, per worktree, what each record must be: the bytes it last wrote in this process, or
// the blob HEAD has for it. A record that differs was changed by someone else and is
// refused (RecordTamperedError) or put back (contain-workspace.ts).
//
// One ledger per worktree root, shared by every JobRepo and file helper of that root; its
// lock serialises the engine's writes with the checks, so a check never sees half a write.

import { createHash } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import type { GitClient } from "../../git/git-client.js";
import { PHASES } from "../../skills/phases.js";
import { createSerialQueue } from "../../git/serial-queue.js";
import { parseRoundDir } from "../../records/job-paths.js";

export const RECORDS_DIR = ".cfa";

/** The phase artifacts' file names (docs/protocol.md#phase-artifacts). */
export const ARTIFACT_NAMES: ReadonlySet<string> = new Set<string>(
  Object.values(PHASES).map((phase) => phase.artifact),
);

/** True for `.cfa` and every path below it. */
export function isUnderRecords(relative: string): boolean {
  return relative === RECORDS_DIR || relative.startsWith(`${RECORDS_DIR}/`);
}

/**
 * The job and round whose phase artifact `relative` would be (`.cfa/jobs/<N>/PLAN.md`, a
 * follow-up's `.cfa/jobs/<N>.<k>/PLAN.md`), or null when it is none. Written by a lead, not
 * by the engine — while its job is the newest on the branch (RecordLedger.isArtifact).
 */
function artifactRound(relative: string): { job: number; round: number } | null {
  const match = /^\.cfa\/jobs\/([^/]+)\/([^/]+)$/u.exec(relative);
  if (match === null || !ARTIFACT_NAMES.has(match[2]!)) return null;
  return parseRoundDir(match[1]!);
}

/** `.cfa/jobs/<dir>/state.json` → the job and round of `<dir>`; null for anything else. */
function stateRound(relative: string): { job: number; round: number } | null {
  const match = /^\.cfa\/jobs\/([^/]+)\/state\.json$/u.exec(relative);
  return match === null ? null : parseRoundDir(match[1]!);
}

/** What a path must hold: a blob id, and the bytes when the engine wrote them itself. */
export interface Expected {
  oid: string;
  bytes?: Buffer;
}

/** A file's identity and change times, as lstat gives them (nanoseconds). */
export interface FileStamp {
  ino: bigint;
  size: bigint;
  ctimeNs: bigint;
  mtimeNs: bigint;
}

// A file last changed this close to when it was checked may change again within the same
// clock tick without its stamp changing (git's "racily clean" entries): read it again.
const RACY_NS = 2_000_000_000n;

export class RecordLedger {
  private readonly entries = new Map<string, Expected>();
  /** What the index holds under `.cfa/` (HEAD's after a reset; the engine stages the rest). */
  private readonly indexed = new Map<string, string>();
  /** Files read and found to hold a blob id, with their stamp then: not read again unchanged. */
  private readonly checked = new Map<string, { stamp: FileStamp; oid: string; atNs: bigint }>();
  private seeded: Promise<void> | undefined;
  private format: "sha1" | "sha256" = "sha1";
  /** Per job, the newest round whose state.json the ledger knows (null: to be worked out). */
  private newest: Map<number, number> | null = null;
  private formatKnown = false;
  private readonly lock = createSerialQueue();

  constructor(
    /** The worktree root, real path. */
    readonly root: string,
    /** Git at this worktree, with its git dir (git-client.ts). */
    readonly git: GitClient,
  ) {}

  /** Runs `work` with no other write or check of this worktree's records in between. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.run(work);
  }

  /** True once `ready()` has loaded HEAD's records. */
  get isSeeded(): boolean {
    return this.seeded !== undefined;
  }

  /** Loads what HEAD holds under `.cfa/` (once); call within `exclusive`. */
  ready(): Promise<void> {
    this.seeded ??= this.seedFromHead().catch((error: unknown) => {
      this.seeded = undefined;
      throw error;
    });
    return this.seeded;
  }

  /** Forgets every expectation and loads HEAD's again (after a reset to HEAD). */
  async reseed(): Promise<void> {
    this.seeded = undefined;
    await this.ready();
  }

  private async seedFromHead(): Promise<void> {
    const head = await this.headBlobs();
    // A repository's object format never changes: known once per ledger, from the length of
    // any id HEAD's records have (40 hex digits for SHA-1, 64 for SHA-256: every object id of
    // a repository has its format's length), else asked (a git process a wake, saved).
    if (!this.formatKnown) {
      const some = head.values().next().value;
      const format =
        some !== undefined
          ? some.length === 64
            ? "sha256"
            : "sha1"
          : (await this.git.raw(["rev-parse", "--show-object-format"])).trim();
      this.format = format === "sha256" ? "sha256" : "sha1";
      this.formatKnown = true;
    }
    this.entries.clear();
    this.indexed.clear();
    this.checked.clear();
    this.newest = null;
    for (const [path, oid] of head) {
      this.entries.set(path, { oid });
      this.indexed.set(path, oid);
    }
  }

  /** Regular files HEAD has under `.cfa/`, path → blob id. */
  async headBlobs(): Promise<Map<string, string>> {
    const listed = await this.git.run([
      "ls-tree",
      "-r",
      "-z",
      "--full-tree",
      "HEAD",
      "--",
      RECORDS_DIR,
    ]);
    const blobs = new Map<string, string>();
    if (listed.code !== 0) return blobs; // no HEAD yet: nothing expected
    for (const line of listed.stdout.toString("utf8").split("\0")) {
      const match = /^(\d{6}) blob ([0-9a-f]+)\t(.+)$/su.exec(line);
      // Only regular files: a link committed under `.cfa/` is never a record.
      if (match && (match[1] === "100644" || match[1] === "100755")) {
        blobs.set(match[3]!, match[2]!);
      }
    }
    return blobs;
  }

  /** The blob id git gives `bytes` in this repository's object format. */
  oidOf(bytes: Buffer): string {
    return createHash(this.format).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  }

  /** The blob id the index holds for `relative` under `.cfa/`, as far as the engine staged it. */
  indexedOid(relative: string): string | undefined {
    return this.indexed.get(relative);
  }

  indexedPaths(): string[] {
    return [...this.indexed.keys()];
  }

  /** The engine staged `oid` (null: removed) for `relative`. */
  staged(relative: string, oid: string | null): void {
    if (oid === null) this.indexed.delete(relative);
    else this.indexed.set(relative, oid);
  }

  expected(relative: string): Expected | undefined {
    return this.entries.get(relative);
  }

  paths(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** True when a file holding blob `oid` (null: absent) is what `relative` must hold. */
  matchesOid(relative: string, oid: string | null): boolean {
    const expected = this.entries.get(relative);
    return expected === undefined ? oid === null : expected.oid === oid;
  }

  /** True when `bytes` (null: absent) is what `relative` must hold. */
  matches(relative: string, bytes: Buffer | null): boolean {
    return this.matchesOid(relative, bytes === null ? null : this.oidOf(bytes));
  }

  wrote(relative: string, bytes: Buffer): void {
    if (!this.entries.has(relative) && stateRound(relative) !== null) this.newest = null;
    this.entries.set(relative, { oid: this.oidOf(bytes), bytes: Buffer.from(bytes) });
    this.checked.delete(relative);
  }

  /** Now holds what HEAD holds for it (an artifact just committed, say). */
  committed(relative: string, oid: string): void {
    if (this.entries.get(relative)?.oid === oid) return;
    this.entries.set(relative, { oid });
  }

  /** `relative` (and, for a folder, everything below it) is gone. */
  removed(relative: string): void {
    this.newest = null;
    for (const map of [this.entries, this.checked]) {
      for (const key of [...map.keys()]) {
        if (key === relative || key.startsWith(`${relative}/`)) map.delete(key);
      }
    }
  }

  /**
   * Whether `relative` is a phase artifact a lead may write: an artifact's place in the
   * folder of the newest round of its job (docs/protocol.md#persistence: a job that ended is
   * never changed, so once its follow-up began, its artifacts are records like the rest).
   */
  isArtifact(relative: string): boolean {
    const at = artifactRound(relative);
    if (at === null) return false;
    return (this.newestRounds().get(at.job) ?? 1) === at.round;
  }

  /** A record: under `.cfa/` and not an artifact a lead may write now. */
  isRecord(relative: string): boolean {
    return isUnderRecords(relative) && relative !== RECORDS_DIR && !this.isArtifact(relative);
  }

  private newestRounds(): Map<number, number> {
    if (this.newest !== null) return this.newest;
    const newest = new Map<number, number>();
    for (const path of this.entries.keys()) {
      const at = stateRound(path);
      if (at !== null && at.round > (newest.get(at.job) ?? 0)) newest.set(at.job, at.round);
    }
    this.newest = newest;
    return newest;
  }

  /** The blob id of the file at `relative` if its stamp says it has not changed since read. */
  knownOid(relative: string, stamp: FileStamp): string | undefined {
    const seen = this.checked.get(relative);
    if (seen === undefined || !sameStamp(seen.stamp, stamp)) return undefined;
    return stamp.ctimeNs + RACY_NS < seen.atNs ? seen.oid : undefined;
  }

  /** The file at `relative`, stamped `stamp` before it was read, held blob `oid`. */
  remember(relative: string, stamp: FileStamp, oid: string): void {
    this.checked.set(relative, { stamp, oid, atNs: BigInt(Date.now()) * 1_000_000n });
  }

  /** The bytes `relative` must hold: the engine's, or the blob's from the object store. */
  async bytesOf(relative: string): Promise<Buffer | null> {
    const expected = this.entries.get(relative);
    if (expected === undefined) return null;
    if (expected.bytes !== undefined) return expected.bytes;
    const blob = await this.git.run(["cat-file", "blob", expected.oid]);
    if (blob.code !== 0) {
      throw new Error(
        `cfa/records: cannot read blob ${expected.oid} of ${relative}: ${blob.stderr}`,
      );
    }
    return blob.stdout;
  }
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.ctimeNs === b.ctimeNs && a.mtimeNs === b.mtimeNs;
}

const ledgers = new Map<string, RecordLedger>();

/**
 * A worktree is its real path and the folder's identity: a task worktree removed and made
 * again at the same path (a retried dispatch) starts with a fresh ledger.
 */
function identify(root: string): { key: string; real: string } {
  try {
    const real = realpathSync(root);
    const stats = statSync(real);
    return { key: `${real}\0${stats.dev}:${stats.ino}`, real };
  } catch {
    return { key: root, real: root };
  }
}

/** The ledger of the worktree at `root`, made with `git` on first use. */
export function registerRecords(root: string, git: GitClient): RecordLedger {
  const { key, real } = identify(root);
  let ledger = ledgers.get(key);
  if (ledger === undefined) {
    ledger = new RecordLedger(real, git);
    ledgers.set(key, ledger);
  }
  return ledger;
}

/** The ledger of the worktree at `root`, if the engine works there. */
export function recordsOf(root: string): RecordLedger | undefined {
  return ledgers.get(identify(root).key);
}
