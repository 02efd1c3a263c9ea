// The repository a recorded run starts from, for its replay file: the text files tracked
// on the default branch (where the job starts, never the checkout's HEAD), within limits (a replay needs the files agents read, not the repository's
// history or its binaries). `.github/cfa.yml` goes to the file's `config`; job records stay
// out.

import { CONFIG_PATH } from "../config/index.js";
import { gitText } from "./git-text.js";
import { localDefaultBranch } from "./wiring.js";

export const SNAPSHOT_LIMITS = { fileBytes: 256 * 1024, totalBytes: 4 * 1024 * 1024 };

export interface Snapshot {
  files: Record<string, string>;
  config: string | null;
  /** Paths left out (too big, binary, or past the total), for a warning. */
  skipped: string[];
}

export async function snapshotFiles(repoDir: string): Promise<Snapshot> {
  const base = `refs/heads/${await localDefaultBranch(repoDir)}`;
  const listing = await gitText(repoDir, ["ls-tree", "-r", "-z", "-l", base]);
  const files: Record<string, string> = {};
  const skipped: string[] = [];
  let config: string | null = null;
  let total = 0;
  for (const entry of listing.split("\0")) {
    // "<mode> <type> <object> <size>\t<path>"
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [, type, object, size] = entry.slice(0, tab).trim().split(/\s+/);
    const path = entry.slice(tab + 1);
    if (type !== "blob" || object === undefined || path.startsWith(".cfa/jobs/")) continue;
    const bytes = Number(size);
    if (!(bytes <= SNAPSHOT_LIMITS.fileBytes) || total + bytes > SNAPSHOT_LIMITS.totalBytes) {
      skipped.push(path);
      continue;
    }
    const text = await gitText(repoDir, ["cat-file", "blob", object]);
    if (text.includes("\0")) {
      skipped.push(path);
      continue;
    }
    if (path === CONFIG_PATH) config = text;
    else files[path] = text;
    total += bytes;
  }
  return { files, config, skipped };
}
