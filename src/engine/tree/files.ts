// The engine's own reads and writes of its records and of the artifacts, always relative to
// a worktree root. They go through the same boundary as the agents' file tools
// (src/agents/boundary, src/agents/fs): resolved inside the root, no symbolic link anywhere
// on the path (a record or an artifact is a regular file at a fixed place, so a link there
// is an agent's: `ln -sfn /proc/self/environ PLAN.md`), no hard link, each folder held by
// descriptor so nothing is ever created, appended or read outside the worktree. A record
// (anything under `.cfa/` but the artifacts) must also hold what the engine last wrote there
// or what HEAD holds (record-ledger.ts); anything else is a RecordTamperedError.

import { realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { resolveInWorkspace } from "../../agents/boundary/resolve-in-workspace.js";
import { openDirInside, type AnchoredDir } from "../../agents/fs/anchored-dir.js";
import { appendFile } from "../../agents/fs/append-file.js";
import { FileToolError } from "../../agents/fs/file-tool-error.js";
import { readFileBytes } from "../../agents/fs/read-file.js";
import { removeEntry } from "../../agents/fs/remove-entry.js";
import { writeFile } from "../../agents/fs/write-file.js";
import { isUnderRecords, recordsOf, type RecordLedger } from "./record-ledger.js";
import { RecordTamperedError } from "./record-tampered-error.js";

// Records are read whole: the bus and the transcripts are the job.
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

async function guarded<T>(root: string, work: (ledger?: RecordLedger) => Promise<T>): Promise<T> {
  const ledger = recordsOf(root);
  if (ledger === undefined) return work();
  return ledger.exclusive(async () => {
    await ledger.ready();
    return work(ledger);
  });
}

/** The bytes at `rel`, or null when absent. */
async function readBytes(root: string, rel: string): Promise<Buffer | null> {
  try {
    return (await readFileBytes(root, rel, { noLinks: true, maxBytes: NO_LIMIT })).bytes;
  } catch (error) {
    if (error instanceof FileToolError && error.code === "not-found") return null;
    throw error;
  }
}

function check(ledger: RecordLedger | undefined, rel: string, bytes: Buffer | null): void {
  if (ledger === undefined || !ledger.isRecord(rel) || ledger.matches(rel, bytes)) return;
  const expected = ledger.expected(rel) !== undefined;
  throw new RecordTamperedError(
    rel,
    bytes === null ? "was removed" : expected ? "was changed" : "was created",
  );
}

export async function readText(root: string, rel: string): Promise<string | null> {
  return guarded(root, async (ledger) => {
    const bytes = await readBytes(root, rel);
    check(ledger, rel, bytes);
    return bytes === null ? null : bytes.toString("utf8");
  });
}

/** Replaces the file whole (write to a temp file, then rename): never half a record. */
export async function writeText(root: string, rel: string, text: string): Promise<void> {
  await guarded(root, async (ledger) => {
    const bytes = Buffer.from(text, "utf8");
    await writeFile(root, rel, bytes, { noLinks: true, durable: false });
    if (isUnderRecords(rel)) ledger?.wrote(rel, bytes);
  });
}

/** Appends in one write, so a crash cuts at most the tail of this append (fold drops it). */
export async function appendText(root: string, rel: string, text: string): Promise<void> {
  if (text === "") return;
  await guarded(root, async (ledger) => {
    const bytes = Buffer.from(text, "utf8");
    if (ledger === undefined || !isUnderRecords(rel)) {
      await appendFile(root, rel, bytes, { noLinks: true });
      return;
    }
    // Appending to a record someone else changed would make their bytes the engine's.
    let before: Buffer | null = null;
    await appendFile(root, rel, bytes, {
      noLinks: true,
      check: (existing) => {
        before = existing;
        // A file the engine expected absent is created empty by this very open.
        check(ledger, rel, existing.length === 0 && !ledger.expected(rel) ? null : existing);
      },
    });
    ledger.wrote(rel, before === null ? bytes : Buffer.concat([before, bytes]));
  });
}

export async function removeFile(root: string, rel: string): Promise<void> {
  await guarded(root, async (ledger) => {
    await removeEntry(root, rel, { noLinks: true });
    if (isUnderRecords(rel)) ledger?.removed(rel);
  });
}

/** The names in the folder `rel` ([] when it does not exist); never through a link. */
export async function listNames(root: string, rel: string): Promise<string[]> {
  return guarded(root, async () => {
    const real = resolveInWorkspace(root, rel, { noLinks: true });
    const rootReal = realpathSync(root);
    let dir: AnchoredDir;
    try {
      dir = await openDirInside(rootReal, path.relative(rootReal, real), {
        create: false,
        requested: rel,
      });
    } catch (error) {
      if (error instanceof FileToolError && error.code === "not-found") return [];
      throw error;
    }
    try {
      return (await readdir(dir.at(""))).sort();
    } finally {
      await dir.close();
    }
  });
}
