// What `cfa clean` removes (commands/clean.ts). Every folder under the work base is one
// repository's job areas (work-root.ts): `<N>/` per job (its worktrees), `<N>.wake.lock`, and
// the repository's id and path. An area goes whole when its repository is gone (no folder
// there, or one that is not the same repository: another id); a job's part goes when the job
// has ended (its state record on cfa/<N> says DONE, WITHDRAWN or FAILURE) or has no branch
// any more. A job whose wake lock a running process holds is kept, whatever its state. After
// removing worktrees of a repository that exists, `git worktree prune` drops their
// registrations (their folders are gone: https://git-scm.com/docs/git-worktree#_commands).

import { lstat, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isRunning, parseLockOwner } from "../records/lock-owner.js";
import type { CliIo } from "./cli-io.js";
import { gitTry } from "./git-text.js";
import { defaultWorkRoot, REPOSITORY_ID_FILE, REPOSITORY_PATH_FILE } from "./work-root.js";

const ENDED = new Set(["DONE", "WITHDRAWN", "FAILURE"]);

export async function cleanAreas(io: CliIo, o: { dryRun: boolean }): Promise<number> {
  const base = dirname(defaultWorkRoot(io.cwd, io.env));
  const say = (line: string) => io.stdout.write(`${line}\n`);
  let freed = 0;
  let removed = 0;
  let unknown = 0;
  const remove = async (path: string, why: string) => {
    const bytes = await sizeOf(path);
    freed += bytes;
    removed += 1;
    say(`${o.dryRun ? "would remove" : "removed"} ${path} (${megabytes(bytes)}): ${why}`);
    if (!o.dryRun) await rm(path, { recursive: true, force: true });
  };
  for (const name of (await readdir(base).catch(() => [] as string[])).sort()) {
    const area = join(base, name);
    if (!(await lstat(area)).isDirectory()) continue;
    const repo = await repositoryOf(area);
    if (repo === null) {
      unknown += 1;
      continue;
    }
    if (!(await sameRepository(repo, area))) {
      await remove(area, `its repository ${repo} no longer exists`);
      continue;
    }
    let pruned = false;
    for (const entry of (await readdir(area)).sort()) {
      const n = /^([0-9]+)$/.exec(entry)?.[1];
      if (n === undefined) continue;
      const lock = join(area, `${n}.wake.lock`);
      if (await heldByRunning(lock)) continue;
      const state = await jobState(repo, Number(n));
      if (state !== null && !ENDED.has(state)) continue;
      await remove(
        join(area, n),
        state === null
          ? `job #${n} of ${repo} has no branch cfa/${n}`
          : `job #${n} of ${repo} is ${state}`,
      );
      if (!o.dryRun) await rm(lock, { force: true });
      pruned = true;
    }
    if (pruned && !o.dryRun) await gitTry(repo, ["worktree", "prune"]);
  }
  const kept =
    unknown > 0
      ? `; kept ${unknown} area${unknown === 1 ? "" : "s"} whose repository cfa cannot tell`
      : "";
  say(
    removed === 0
      ? `Nothing to remove in ${base}${kept}.`
      : `${o.dryRun ? "Would free" : "Freed"} ${megabytes(freed)} in ${removed} job area${removed === 1 ? "" : "s"} under ${base}${kept}.`,
  );
  return 0;
}

/** The repository an area belongs to: its recorded path, else what its worktrees link to. */
async function repositoryOf(area: string): Promise<string | null> {
  const noted = (await readFile(join(area, REPOSITORY_PATH_FILE), "utf8").catch(() => "")).trim();
  if (noted !== "") return noted;
  // Areas made before the path was kept: a worktree's `.git` file names
  // `<repo>/.git/worktrees/<name>`.
  for (const job of await readdir(area).catch(() => [] as string[])) {
    for (const tree of await readdir(join(area, job)).catch(() => [] as string[])) {
      const link = await readFile(join(area, job, tree, ".git"), "utf8").catch(() => "");
      const admin = /^gitdir: (.+)$/m.exec(link)?.[1]?.trim();
      if (admin?.includes("/.git/worktrees/"))
        return admin.slice(0, admin.indexOf("/.git/worktrees/"));
    }
  }
  return null;
}

/** Whether `repo` still is the repository whose id the area holds. */
async function sameRepository(repo: string, area: string): Promise<boolean> {
  const common = (
    await gitTry(repo, ["rev-parse", "--path-format=absolute", "--git-common-dir"])
  )?.trim();
  if (!common) return false;
  const areaId = (await readFile(join(area, REPOSITORY_ID_FILE), "utf8").catch(() => "")).trim();
  const repoId = (
    await readFile(join(common, "cfa-local", REPOSITORY_ID_FILE), "utf8").catch(() => "")
  ).trim();
  return areaId === "" || repoId === areaId;
}

/** The state on cfa/<n>'s record, or null when the job has no branch. */
async function jobState(repo: string, n: number): Promise<string | null> {
  const text = await gitTry(repo, ["show", `refs/heads/cfa/${n}:.cfa/jobs/${n}/state.json`]);
  if (text === null) {
    // No record on the branch: a branch without one is a job not started; keep it.
    return (await gitTry(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/cfa/${n}`])) ===
      null
      ? null
      : "INTENT";
  }
  try {
    return String((JSON.parse(text) as { state?: unknown }).state ?? "INTENT");
  } catch {
    return "INTENT"; // unreadable: keep it
  }
}

async function heldByRunning(lock: string): Promise<boolean> {
  const owner = parseLockOwner(await readFile(lock, "utf8").catch(() => ""));
  return owner !== null && isRunning(owner);
}

async function sizeOf(path: string): Promise<number> {
  const stats = await lstat(path).catch(() => null);
  if (stats === null) return 0;
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOf(join(path, entry));
  return total;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
