// The records of job N, read as texts from its branch (`cfa/N`, or `origin/cfa/N` when only
// the remote has it): they are the whole truth about a job (docs/protocol.md#persistence:
// reconstructable), so `watch` and `inspect` work from another terminal, after the
// fact, or on a clone of a repository the GitHub App runs on.

import { CONFIG_PATH } from "../config/index.js";
import { jobPaths } from "../records/job-paths.js";
import { looseBranchIdAt } from "../git/head-from-files.js";
import { gitBlobs, gitText, gitTry } from "./git-text.js";
import { jobRoundsAt } from "../git/job-rounds.js";
import { localDefaultBranch } from "./wiring.js";

export interface JobRecordTexts {
  job: number;
  /** Which round of the issue these records are: 1 the job, k ≥ 2 its follow-ups. */
  round: number;
  /** Every round the branch holds, oldest first (records/job-paths.ts). */
  rounds: number[];
  /** The ref the records were read from, and its commit. */
  ref: string;
  head: string;
  /** state.json, or null before the engine wrote it. */
  state: string | null;
  /** bus.jsonl ("" when absent). */
  bus: string;
  /** Instance transcripts by file name under `instances/` (`agent@thread`, `:` as `~`). */
  transcripts: Record<string, string>;
  /** Every file under `.cfa/jobs/<N>/`, repository-relative: the artifacts among them. */
  files: string[];
  /** `.github/cfa.yml` on the default branch, if any. */
  config: string | null;
}

/** The job branch's ref in `repoDir`, or null when there is no such job. */
export async function jobRef(repoDir: string, n: number): Promise<string | null> {
  const branch = jobPaths(n).branch;
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`]) {
    if ((await refId(repoDir, ref)) !== null) return ref;
  }
  return null;
}

/** The commit `ref` is at: a loose branch ref read without git (head-from-files.ts). */
async function refId(repoDir: string, ref: string): Promise<string | null> {
  const loose = await looseBranchIdAt(repoDir, ref);
  if (loose !== null) return loose;
  return (await gitTry(repoDir, ["rev-parse", "--verify", "--quiet", ref]))?.trim() || null;
}

/**
 * Round `round` of job `n` (its newest when omitted: a follow-up once one began), read from
 * the job branch's head.
 */
export async function readJobRecords(
  repoDir: string,
  n: number,
  round?: number,
): Promise<JobRecordTexts | null> {
  const ref = await jobRef(repoDir, n);
  if (ref === null) return null;
  const head = (await refId(repoDir, ref)) ?? (await gitText(repoDir, ["rev-parse", ref])).trim();
  const rounds = await jobRoundsAt((args) => gitTry(repoDir, args), head, n);
  const paths = jobPaths(n, round ?? rounds.at(-1) ?? 1);
  // "<mode> blob <object>\t<path>" per file under the job's folder.
  const listing = await gitText(repoDir, ["ls-tree", "-r", "-z", head, "--", `${paths.dir}/`]);
  const objects = new Map<string, string>();
  for (const entry of listing.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const object = entry.slice(0, tab).split(" ")[2];
    if (object) objects.set(entry.slice(tab + 1), object);
  }
  // The default branch as the local forge recorded it, never the checkout's HEAD (a person
  // trying the work on `cfa/N` would otherwise see the agents' own configuration).
  const defaultBranch = await localDefaultBranch(repoDir).catch(() => null);
  const configObject = defaultBranch ? `refs/heads/${defaultBranch}:${CONFIG_PATH}` : null;
  const prefix = `${paths.instancesDir}/`;
  const wanted = [...objects]
    .filter(([path]) => path === paths.state || path === paths.bus || path.startsWith(prefix))
    .map(([, object]) => object);
  const blobs = await gitBlobs(repoDir, configObject ? [...wanted, configObject] : wanted);
  const text = (path: string) => {
    const object = objects.get(path);
    return object === undefined ? null : (blobs.get(object) ?? null);
  };
  const transcripts: Record<string, string> = {};
  for (const path of objects.keys()) {
    if (!path.startsWith(prefix) || !path.endsWith(".jsonl")) continue;
    transcripts[path.slice(prefix.length, -".jsonl".length)] = text(path) ?? "";
  }
  return {
    job: n,
    round: paths.round,
    rounds: rounds.length === 0 ? [1] : rounds,
    ref: ref.replace(/^refs\/(heads|remotes)\//, ""),
    head,
    state: text(paths.state),
    bus: text(paths.bus) ?? "",
    transcripts,
    files: [...objects.keys()],
    config: configObject ? (blobs.get(configObject) ?? null) : null,
  };
}
