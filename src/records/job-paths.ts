// Where a job's records live (README, "How a job works"): everything
// under `.cfa/jobs/<N>/` on the job branch `cfa/<N>`; tasks on `cfa/<N>-<task>` (not
// `cfa/<N>/…`: a ref cannot be both a file and a folder).
//
// A follow-up (docs/protocol.md#jobs-and-states: a job of its own, after DONE or WITHDRAWN,
// on the same branch and pull request) is round k ≥ 2 of issue N; its records live beside
// its parent's, in `.cfa/jobs/<N>.<k>/`, never inside them: the parent's folder stays the
// very tree it had when it ended (one tree id proves it), and every reader of one job's
// folder (the ledger, `cfa inspect`, `git show`) sees that job alone. Its task branches stay
// `cfa/<N>-<task>`: a follow-up may not reuse an earlier round's task id (turn/host.ts), so
// no branch, thread, worktree or recorded instance of two rounds shares a name.

import type { Address } from "../protocol/address.js";
import { addressKey } from "../protocol/address.js";

export const OUTCOME_PATH = ".cfa/outcome.json";
/** Agents may read `.cfa/` but never write it: the records are the engine's. */
export const PROTECTED_PREFIXES = [".cfa/"];
/** Where every job's records folder is. */
export const JOBS_DIR = ".cfa/jobs";

/** The name of round `round`'s records folder under `.cfa/jobs/`: `N`, or `N.k` for a follow-up. */
export function roundDirName(job: number, round = 1): string {
  return round <= 1 ? String(job) : `${job}.${round}`;
}

/** `N` → round 1 of job N, `N.k` → round k; null for any other name. */
export function parseRoundDir(name: string): { job: number; round: number } | null {
  const match = /^([1-9]\d{0,9})(?:\.([2-9]|[1-9]\d{1,5}))?$/u.exec(name);
  if (match === null) return null;
  return { job: Number(match[1]), round: match[2] === undefined ? 1 : Number(match[2]) };
}

export function jobPaths(job: number, round = 1) {
  const dir = `${JOBS_DIR}/${roundDirName(job, round)}`;
  return {
    dir,
    round,
    state: `${dir}/state.json`,
    bus: `${dir}/bus.jsonl`,
    instancesDir: `${dir}/instances`,
    instance: (address: Address) => `${dir}/instances/${instanceFileName(address)}.jsonl`,
    artifact: (name: string) => `${dir}/${name}`,
    branch: `cfa/${job}`,
    taskBranch: (task: string) => `cfa/${job}-${task}`,
  };
}
export type JobPaths = ReturnType<typeof jobPaths>;

/** `agent@thread` with the thread's colons kept readable but safe on every filesystem. */
export function instanceFileName(address: Address): string {
  return addressKey(address).replace(/:/g, "~");
}

export const proxyMemoryPath = (login: string) =>
  `.cfa/proxy/${login.replace(/[^A-Za-z0-9_.-]/g, "_")}.md`;

/** Task ids become branch and directory names: keep them short and plain. */
export const TASK_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * The newest round of job `job` among record paths (`.cfa/jobs/<dir>/state.json`): the one a
 * wake works on, the earlier ones having ended. 1 when none is there yet.
 */
export function newestRoundIn(paths: Iterable<string>, job: number): number {
  let newest = 1;
  for (const path of paths) {
    const match = /^\.cfa\/jobs\/([^/]+)\/state\.json$/u.exec(path);
    const at = match === null ? null : parseRoundDir(match[1]!);
    if (at !== null && at.job === job && at.round > newest) newest = at.round;
  }
  return newest;
}
