// Attribute drivers off, whatever a tree's `.gitattributes` asks for. An
// attribute only names a driver; the program comes from config
// (https://git-scm.com/docs/gitattributes: "filter … clean and smudge commands are specified
// in the configuration", "merge.<driver>.driver … the command to run"). System and global
// config are not read (git-client.ts), so the only drivers left are those the repository's
// own config (or a file it includes) defines: each is overridden here with `-c`, which wins
// over every config file. An agent's `.gitattributes` can then route any path to any driver
// name and git runs nothing:
//
// - filter: git runs a driver only when its command is non-empty (convert.c apply_filter:
//   `if (cmd && *cmd) … else if (drv->process && *drv->process)`), and `required=false` keeps
//   an empty one from failing the command (a wedged job);
// - merge: `merge.<name>.driver=false` makes the driver report a conflict (git runs the
//   `false` built-in of the shell, nothing named by the tree), so the parent agent resolves it
//   as any conflict (docs/protocol.md#workspaces); `merge.default` goes back to the built-in
//   text merge;
// - diff/textconv drivers: the engine's diffs are plumbing or `--name-only`, which never run
//   them ("textconv … not for … diff plumbing commands":
//   https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---no-textconv), and pass
//   --no-ext-diff --no-textconv besides.

import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { GitResult } from "./git-result.js";

const DRIVER_KEYS =
  "^(filter\\..+\\.(clean|smudge|process|required)|merge\\..+\\.driver|merge\\.default)$";

interface Cached {
  stamp: string;
  entries: Promise<string[]>;
}
const cache = new Map<string, Cached>();

/**
 * Where a listing is kept, and what invalidates it. Linked worktrees read the common dir's
 * config and, only with `extensions.worktreeConfig`, their own `config.worktree`
 * (https://git-scm.com/docs/git-worktree#_configuration_file): a worktree without that file
 * lists exactly what its common dir lists, so a job's worktrees share one listing (one
 * `git config` process per repository instead of one per task). Not when the config
 * includes other files: `includeIf "gitdir:…"` and `"onbranch:…"` differ per worktree.
 * Included files are not followed for the stamp; a repository whose owner edits only an
 * included file while a job runs gets the new drivers switched off at the next process.
 */
export function configPlace(where: string): { key: string; stamp: string } {
  const dotGit = path.join(where, ".git");
  const gitDir = isDir(dotGit) ? dotGit : where;
  let common = gitDir;
  let linked = false;
  try {
    common = path.resolve(gitDir, readFileSync(path.join(gitDir, "commondir"), "utf8").trim());
    linked = true;
  } catch {
    // not a linked worktree's git dir: the common dir is the git dir
  }
  const commonConfig = path.join(common, "config");
  const own = path.join(gitDir, "config.worktree");
  const files = [commonConfig, path.join(common, "config.worktree")];
  const shared =
    (linked || gitDir === common) &&
    isDir(common) &&
    (gitDir === common || !exists(own)) &&
    !includesFiles(commonConfig);
  if (!shared) files.push(own);
  const stamp = files
    .map((file) => {
      try {
        const stats = statSync(file);
        return `${file}:${stats.mtimeMs}:${stats.size}:${stats.ino}`;
      } catch {
        return `${file}:-`;
      }
    })
    .join("|");
  return { key: shared ? `common:${common}` : `dir:${where}`, stamp };
}

/** Whether a config file has an `[include]` or `[includeIf …]` section (case-insensitive). */
function includesFiles(file: string): boolean {
  try {
    return /^\s*\[\s*include/im.test(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}

function exists(target: string): boolean {
  try {
    statSync(target);
    return true;
  } catch {
    return false;
  }
}

function isDir(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `-c` entries that switch off every filter and merge driver the repository's config names,
 * listed once per repository (or worktree) and config change (`where`: its git dir, or its
 * work tree).
 */
export function driverOverrides(
  where: string,
  run: (args: readonly string[]) => Promise<GitResult>,
): Promise<string[]> {
  const { key, stamp } = configPlace(where);
  const known = cache.get(key);
  if (known?.stamp === stamp) return known.entries;
  const entries = listOverrides(run);
  entries.catch(() => cache.delete(key));
  cache.set(key, { stamp, entries });
  return entries;
}

async function listOverrides(
  run: (args: readonly string[]) => Promise<GitResult>,
): Promise<string[]> {
  const listed = await run(["config", "--null", "--name-only", "--get-regexp", DRIVER_KEYS]);
  // 1: no such key; anything else (not a repository yet): nothing to override either.
  if (listed.code !== 0) return [];
  const entries = new Set<string>();
  for (const key of listed.stdout.toString("utf8").split("\0")) {
    // `-c` splits at the first "=": a driver name holding one cannot be addressed this way
    // (git itself cannot set such a key with -c either), so none is ever written for it.
    if (key === "" || key.includes("=")) continue;
    if (key === "merge.default") {
      entries.add("merge.default=text");
      continue;
    }
    const dot = key.lastIndexOf(".");
    const section = key.slice(0, key.indexOf("."));
    const name = key.slice(key.indexOf(".") + 1, dot);
    if (section === "filter") {
      for (const setting of ["clean=", "smudge=", "process=", "required=false"]) {
        entries.add(`filter.${name}.${setting}`);
      }
    } else {
      entries.add(`merge.${name}.driver=false`);
    }
  }
  return [...entries];
}
