// Small file helpers for the engine's records, always relative to a worktree root.

import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export async function readText(root: string, rel: string): Promise<string | null> {
  try {
    return await readFile(join(root, rel), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Replaces the file whole (write to a temp file, then rename): never half a record. */
export async function writeText(root: string, rel: string, text: string): Promise<void> {
  const path = join(root, rel);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Appends in one write, so a crash cuts at most the tail of this append (fold drops it). */
export async function appendText(root: string, rel: string, text: string): Promise<void> {
  if (text === "") return;
  const path = join(root, rel);
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, text);
}

export async function removeFile(root: string, rel: string): Promise<void> {
  await rm(join(root, rel), { force: true });
}
