// Putting `.cfa/` back to what the engine's ledger says it holds, through the
// workspace boundary: every folder held by descriptor, nothing followed through a link. A
// link, a FIFO, a hard-linked or changed record is replaced by the engine's bytes; a record
// the engine never wrote and HEAD does not have is removed; a missing one is written again.
// `writable` paths (a lead's own artifact) may hold anything, but only as a regular file.

import { constants } from "node:fs";
import { lstat, open, readdir, type FileHandle } from "node:fs/promises";
import type { Dirent } from "node:fs";
import { openDirInside, type AnchoredDir } from "../../agents/fs/anchored-dir.js";
import { FileToolError } from "../../agents/fs/file-tool-error.js";
import { readFileBytes } from "../../agents/fs/read-file.js";
import { removeTree } from "../../agents/fs/remove-entry.js";
import { writeFile } from "../../agents/fs/write-file.js";
import { MAX_TREE_DEPTH } from "../../agents/boundary/tree-limits.js";
import { ARTIFACT_NAMES, RECORDS_DIR, type RecordLedger } from "./record-ledger.js";
import { parseRoundDir } from "../../records/job-paths.js";

/** One entry under `.cfa/` on disk. */
export interface RecordEntry {
  path: string;
  kind: "file" | "link" | "dir" | "other";
  /** A regular file with no other hard link: the blob id of what it holds. */
  oid?: string;
}

export interface Settled {
  /** Records put back or removed. */
  repaired: string[];
  /** Writable paths (artifacts) that were not regular files: removed, the last commit's back. */
  refusedArtifacts: string[];
  /** The regular files in scope afterwards, path → blob id. */
  present: Map<string, string>;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;
// O_NONBLOCK: a FIFO planted there cannot hang the engine.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Call within the ledger's `exclusive`, after `ready()`. */
export async function settleRecords(
  root: string,
  ledger: RecordLedger,
  options: { inScope: (file: string) => boolean; writable: (file: string) => boolean },
): Promise<Settled> {
  const repaired = new Set<string>();
  const refusedArtifacts = new Set<string>();
  const kept = new Set<string>();
  const present = new Map<string, string>();
  const removed: string[] = [];
  const isGone = (file: string) => removed.some((dead) => file.startsWith(`${dead}/`));

  for (const entry of await scanRecords(root, ledger)) {
    if (!options.inScope(entry.path) || isGone(entry.path)) continue;
    if (entry.kind === "dir") {
      // Folders are harmless; one where a record file belongs goes.
      if (ledger.expected(entry.path) === undefined) continue;
      await removeAt(root, entry.path);
      removed.push(entry.path);
      if (options.writable(entry.path)) refusedArtifacts.add(entry.path);
      else repaired.add(entry.path);
      continue;
    }
    if (options.writable(entry.path)) {
      if (entry.kind === "file") {
        kept.add(entry.path);
        present.set(entry.path, entry.oid!);
        continue;
      }
      refusedArtifacts.add(entry.path);
    } else if (entry.kind === "file" && ledger.matchesOid(entry.path, entry.oid!)) {
      kept.add(entry.path);
      present.set(entry.path, entry.oid!);
      continue;
    } else {
      repaired.add(entry.path);
    }
    await removeAt(root, entry.path);
    removed.push(entry.path);
  }

  for (const file of ledger.paths()) {
    if (!options.inScope(file) || kept.has(file)) continue;
    // A lead may remove its own artifact; it comes back in place of something refused, or
    // when a folder on its way had to go.
    if (options.writable(file) && !refusedArtifacts.has(file) && !isGone(file)) continue;
    const bytes = await ledger.bytesOf(file);
    if (bytes === null) continue;
    await writeFile(root, file, bytes, { noLinks: true, durable: false });
    present.set(file, ledger.oidOf(bytes));
    if (!refusedArtifacts.has(file)) repaired.add(file);
  }
  return {
    repaired: [...repaired].sort(),
    refusedArtifacts: [...refusedArtifacts].sort(),
    present,
  };
}

async function removeAt(root: string, file: string): Promise<void> {
  const slash = file.lastIndexOf("/");
  const parent = slash === -1 ? "" : file.slice(0, slash);
  let dir: AnchoredDir;
  try {
    dir = await openDirInside(root, parent, { create: false, requested: file });
  } catch {
    return; // its folder is gone (or was a link, removed already): nothing left here
  }
  try {
    await removeTree(dir, file.slice(slash + 1), file);
  } finally {
    await dir.close();
  }
}

/**
 * Everything under `.cfa/` on disk, each folder before its entries, no link followed. A file
 * whose stamp has not changed since the ledger last read it is not read again.
 */
export async function scanRecords(root: string, ledger: RecordLedger): Promise<RecordEntry[]> {
  const entries: RecordEntry[] = [];
  const top = await lstat(`${root}/${RECORDS_DIR}`).catch(() => undefined);
  if (top === undefined) return entries;
  if (!top.isDirectory()) {
    entries.push({ path: RECORDS_DIR, kind: top.isSymbolicLink() ? "link" : "other" });
    return entries;
  }
  const dir = await openDirInside(root, RECORDS_DIR, { create: false, requested: RECORDS_DIR });
  try {
    await scanDir(root, ledger, dir, RECORDS_DIR, entries);
  } finally {
    await dir.close();
  }
  return entries;
}

/**
 * The entries below `top`, each folder before its entries. Iterative, one folder held per
 * level, and never below MAX_TREE_DEPTH (a tree an agent made deep must not make the walk
 * throw at every wake): what lies deeper is no record, and
 * the after-command sweep removes it.
 */
async function scanDir(
  root: string,
  ledger: RecordLedger,
  top: AnchoredDir,
  prefix: string,
  entries: RecordEntry[],
): Promise<void> {
  const stack: { dir: AnchoredDir; prefix: string; listed: Dirent[]; next: number }[] = [
    { dir: top, prefix, listed: await sortedEntries(top), next: 0 },
  ];
  try {
    while (stack.length > 0) {
      const frame = stack.at(-1)!;
      const entry = frame.listed[frame.next];
      if (entry === undefined) {
        stack.pop();
        if (frame.dir !== top) await frame.dir.close();
        continue;
      }
      frame.next += 1;
      const { dir } = frame;
      const relative = `${frame.prefix}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        entries.push({ path: relative, kind: "link" });
      } else if (entry.isDirectory()) {
        entries.push({ path: relative, kind: "dir" });
        if (relative.split("/").length >= MAX_TREE_DEPTH) continue;
        const child = await dir.child(entry.name, { create: false }).catch(() => undefined);
        if (child === undefined) continue;
        stack.push({ dir: child, prefix: relative, listed: await sortedEntries(child), next: 0 });
      } else if (entry.isFile()) {
        const oid = await fileOid(ledger, dir, entry.name, relative);
        entries.push(
          oid === null ? { path: relative, kind: "other" } : { path: relative, kind: "file", oid },
        );
      } else {
        entries.push({ path: relative, kind: "other" });
      }
    }
  } finally {
    for (const frame of stack) if (frame.dir !== top) await frame.dir.close();
  }
}

async function sortedEntries(dir: AnchoredDir): Promise<Dirent[]> {
  try {
    const listed = await readdir(dir.at(""), { withFileTypes: true });
    return listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** A regular file's bytes through the boundary (no link, no hard link); null otherwise. */
export async function readRegular(root: string, file: string): Promise<Buffer | null> {
  try {
    return (await readFileBytes(root, file, { noLinks: true, maxBytes: NO_LIMIT })).bytes;
  } catch (error) {
    if (error instanceof FileToolError || (error as Error).name === "BoundaryError") return null;
    throw error;
  }
}

/** The blob id of a regular, singly linked file in `dir`; null for anything else. */
export async function fileOid(
  ledger: RecordLedger,
  dir: AnchoredDir,
  name: string,
  relative: string,
): Promise<string | null> {
  const stats = await lstat(dir.at(name), { bigint: true }).catch(() => undefined);
  if (stats === undefined || !stats.isFile() || stats.nlink !== 1n) return null;
  const stamp = {
    ino: stats.ino,
    size: stats.size,
    ctimeNs: stats.ctimeNs,
    mtimeNs: stats.mtimeNs,
  };
  const known = ledger.knownOid(relative, stamp);
  if (known !== undefined) return known;
  const bytes = await readAnchored(dir, name, stats.ino);
  if (bytes === null) return null;
  const oid = ledger.oidOf(bytes);
  ledger.remember(relative, stamp, oid);
  return oid;
}

/**
 * The bytes of `name` in the held folder `dir`: opened without following a link (the folder
 * is already anchored, so nothing on the way can be swapped), and only if it is still the
 * regular, singly linked file `ino` that was checked.
 */
async function readAnchored(dir: AnchoredDir, name: string, ino: bigint): Promise<Buffer | null> {
  if (dir.mode === "path") return null;
  let handle: FileHandle;
  try {
    handle = await open(dir.at(name), READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const held = await handle.stat({ bigint: true });
    if (!held.isFile() || held.nlink !== 1n || held.ino !== ino) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The phase artifacts on disk (`.cfa/jobs/<N>/{INTENT,PLAN,WORK_SUMMARY}.md`) that are
 * regular, singly linked files: path → blob id. A link there is no artifact.
 */
export async function artifactFiles(
  root: string,
  ledger: RecordLedger,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let jobs: AnchoredDir;
  try {
    jobs = await openDirInside(root, `${RECORDS_DIR}/jobs`, {
      create: false,
      requested: ".cfa/jobs",
    });
  } catch {
    return found;
  }
  try {
    for (const entry of await readdir(jobs.at(""), { withFileTypes: true })) {
      if (!entry.isDirectory() || parseRoundDir(entry.name) === null) continue;
      const job = await jobs.child(entry.name, { create: false }).catch(() => undefined);
      if (job === undefined) continue;
      try {
        for (const name of ARTIFACT_NAMES) {
          const relative = `${RECORDS_DIR}/jobs/${entry.name}/${name}`;
          // An ended job's artifacts are records now (RecordLedger.isArtifact).
          if (!ledger.isArtifact(relative)) continue;
          const oid = await fileOid(ledger, job, name, relative);
          if (oid !== null) found.set(relative, oid);
        }
      } finally {
        await job.close();
      }
    }
  } catch {
    // `.cfa/jobs` went away while listed: no artifacts
  } finally {
    await jobs.close();
  }
  return found;
}
