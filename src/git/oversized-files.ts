// Which files a commit would take that are too large for it: a 101 MiB file an
// agent's command made was committed, GitHub refused the push, and every later push of the
// branch failed with it. The engine asks before staging: the files git would add (new ones
// it does not ignore, and changed ones it tracks), measured through the workspace boundary
// (each folder held open, no link followed). The caller leaves them out of the commit.

import { lstat, realpath } from "node:fs/promises";
import { openDirInside, type AnchoredDir } from "../agents/fs/anchored-dir.js";
import type { GitClient } from "./git-client.js";
import { MIB } from "./file-size-limit.js";
import { filesGitWouldAdd } from "./files-git-would-add.js";

export interface OversizedFile {
  /** Root-relative. */
  path: string;
  bytes: number;
}

/**
 * The files under `paths` (all when omitted; literal, root-relative), outside `exclude`
 * prefixes, that `git add --all` would stage and that hold more than `maxBytes`.
 */
export async function oversizedFiles(
  root: string,
  git: GitClient,
  maxBytes: number,
  options: {
    paths?: readonly string[];
    exclude?: readonly string[];
    /** Given what git listed (null: it could not), for a caller that checks the same names. */
    onListed?: (listed: readonly string[] | null) => void;
    /**
     * The names git would add under these paths and excludes, when the caller has just
     * listed them (tree-status.ts filesToAdd): git is not asked again.
     */
    listed?: readonly string[];
  } = {},
): Promise<OversizedFile[]> {
  const specs = options.paths?.map((file) => `:(literal)${file}`) ?? [];
  if (options.paths !== undefined && specs.length === 0) return [];
  const excluded = (options.exclude ?? []).map((prefix) => `:(exclude,literal)${prefix}`);
  const listed =
    options.listed ??
    (await filesGitWouldAdd(git, [...(specs.length > 0 ? specs : ["."]), ...excluded]));
  options.onListed?.(listed);
  if (listed === null) return [];
  const byFolder = new Map<string, Set<string>>();
  for (const file of listed) {
    const slash = file.lastIndexOf("/");
    const folder = slash === -1 ? "" : file.slice(0, slash);
    const names = byFolder.get(folder) ?? new Set<string>();
    names.add(file.slice(slash + 1));
    byFolder.set(folder, names);
  }
  const rootReal = await realpath(root);
  const found: OversizedFile[] = [];
  for (const [folder, names] of byFolder) {
    let dir: AnchoredDir;
    try {
      dir = await openDirInside(rootReal, folder, { create: false, requested: folder || "." });
    } catch {
      continue; // gone, or a link now: git will not take a file through it either
    }
    try {
      for (const name of names) {
        const stats = await lstat(dir.at(name)).catch(() => undefined);
        if (stats?.isFile() && stats.size > maxBytes) {
          found.push({ path: folder === "" ? name : `${folder}/${name}`, bytes: stats.size });
        }
      }
    } finally {
      await dir.close();
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One line for the agent: the file stays, untracked, and why it is not committed. */
export function oversizedNote(file: OversizedFile, maxBytes: number): string {
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
  return `cfa: ${file.path} is ${mib(file.bytes)}, over the ${mib(maxBytes)} a committed file may hold (limits.fileMiB; GitHub refuses files over 100 MiB): it stays in your workspace but is left out of every commit, so neither your branch nor the reviewer sees it. Delete or shrink it, or keep such output in a folder .gitignore names.`;
}
