// Where a repository's job areas (its worktrees, response journal and wake locks) live, for every
// verb alike, replays and the demo included (so the next verb a replay suggests finds its
// worktrees): outside the repository, in the user's cache folder, one folder per repository path.
// And whose they are: a repository deleted and made again at the same path (as people do with
// scratch repositories) finds the folder of the one before, whose worktrees it does not register;
// that folder is stale and is replaced, not kept to fail the first workspace's boundary check.

import { createHash, randomUUID } from "node:crypto";
import { lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { CliError } from "./cli-error.js";
import { followRepository } from "./follow-repository.js";
import { fsReason } from "./fs-reason.js";
import { gitText } from "./git-text.js";

/**
 * The repository's identity, kept in its git dir beside the local forge's records
 * (`<git common dir>/cfa-local/`) and copied into its work root when the root is claimed.
 */
export const REPOSITORY_ID_FILE = "repository-id";
/** The repository's top folder, as last claimed: `cfa clean` tells whose an area is by it. */
export const REPOSITORY_PATH_FILE = "repository-path";

/**
 * `$XDG_CACHE_HOME/cfa-bot/work/<hash of the path>` (the XDG base directory spec: a relative
 * value is ignored), else `~/.cache/…`.
 */
export function defaultWorkRoot(
  repoDir: string,
  env: Record<string, string | undefined> = process.env,
): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".cache");
  const id = createHash("sha256").update(resolve(repoDir)).digest("hex").slice(0, 12);
  return join(base, "cfa-bot", "work", id);
}

export interface Claim {
  /** The repository's id, now in both places. */
  id: string;
  /** Set when the folder held an earlier repository's job areas, now removed. */
  replaced: boolean;
  /** One line when the repository had moved or been copied and its areas followed it. */
  followed?: string;
}

/**
 * Makes `workRoot` the repository's: kept when its id matches, or when the repository
 * registers a worktree in it (an area made before ids, or an id lost); otherwise whatever it
 * holds belongs to no worktree of this repository, and is removed. Never removes a worktree
 * the repository registers.
 */
export async function claimWorkRoot(workRoot: string, repoDir: string): Promise<Claim> {
  const commonDir = (
    await gitText(repoDir, ["rev-parse", "--path-format=absolute", "--git-common-dir"])
  ).trim();
  const idFile = join(commonDir, "cfa-local", REPOSITORY_ID_FILE);
  const marker = join(workRoot, REPOSITORY_ID_FILE);
  const repoId = await readId(idFile);
  // A moved or copied repository: its registrations name worktrees of the old path's areas
  // (follow-repository.ts). Looked at before this path's own area, which a move brings.
  const { said } = await followRepository({
    repoDir,
    commonDir,
    workRoot,
    workBase: dirname(workRoot),
    repoId,
  });
  const followed = said === null ? {} : { followed: said };
  const areaId = await readId(marker);
  if (repoId !== null && areaId === repoId) {
    await notePath(workRoot, repoDir);
    return { id: repoId, replaced: false, ...followed };
  }

  const stats = await lstat(workRoot).catch(() => undefined);
  if (stats !== undefined && (stats.isSymbolicLink() || !stats.isDirectory())) {
    throw new CliError(
      `${workRoot}, where this repository's job areas go, is not a folder: move it away.`,
    );
  }
  const held =
    stats === undefined
      ? []
      : (await readdir(workRoot)).filter(
          (entry) => entry !== REPOSITORY_ID_FILE && entry !== REPOSITORY_PATH_FILE,
        );
  const stale = held.length > 0 && !(await registersWorktreeIn(commonDir, workRoot));
  try {
    if (stale) await rm(workRoot, { recursive: true, force: true });
    await mkdir(workRoot, { recursive: true });
    const id = await keepId(idFile, repoId ?? (stale ? null : areaId) ?? randomUUID());
    await writeFile(marker, `${id}\n`);
    await notePath(workRoot, repoDir);
    return { id, replaced: stale, ...followed };
  } catch (error) {
    // The job areas' folder, or the repository's git dir (its id): say which, and what helps.
    const path = (error as NodeJS.ErrnoException).path ?? workRoot;
    const help = path.startsWith(commonDir) ? "" : " Set XDG_CACHE_HOME to a folder you can write.";
    throw new CliError(
      `cannot keep this repository's job areas: ${path}: ${fsReason(error)}.${help}`,
    );
  }
}

/** Keeps the repository's path in its work root (written only when it changed). */
async function notePath(workRoot: string, repoDir: string): Promise<void> {
  const file = join(workRoot, REPOSITORY_PATH_FILE);
  const top = resolve(repoDir);
  if ((await readFile(file, "utf8").catch(() => "")).trim() !== top) {
    await writeFile(file, `${top}\n`);
  }
}

async function readId(path: string): Promise<string | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  const id = text?.trim() ?? "";
  return /^[0-9a-f-]{36}$/.test(id) ? id : null;
}

/** Writes the repository's id unless another command wrote one first; returns the one kept. */
async function keepId(idFile: string, id: string): Promise<string> {
  await mkdir(dirname(idFile), { recursive: true });
  try {
    await writeFile(idFile, `${id}\n`, { flag: "wx" });
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const kept = await readId(idFile);
    if (kept !== null) return kept;
    await writeFile(idFile, `${id}\n`);
    return id;
  }
}

/**
 * Whether the repository registers a worktree inside `folder`: each of its linked worktrees
 * has `<common dir>/worktrees/<name>/gitdir`, naming the worktree's `.git` file
 * (https://git-scm.com/docs/git-worktree#_details). Read from the repository's side, which no
 * agent's command can write.
 */
async function registersWorktreeIn(commonDir: string, folder: string): Promise<boolean> {
  const roots = new Set([resolve(folder), await realpath(folder).catch(() => resolve(folder))]);
  const admin = join(commonDir, "worktrees");
  for (const entry of await readdir(admin).catch(() => [] as string[])) {
    const pointer = (await readFile(join(admin, entry, "gitdir"), "utf8").catch(() => "")).trim();
    if (pointer === "") continue;
    for (const root of roots) if (pointer.startsWith(root + sep)) return true;
  }
  return false;
}
