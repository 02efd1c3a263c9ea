// Where a job's records live (README, "How a job works"): everything
// under `.cfa/jobs/<N>/` on the job branch `cfa/<N>`; tasks on `cfa/<N>-<task>` (not
// `cfa/<N>/…`: a ref cannot be both a file and a folder).

import type { Address } from "../protocol/address.js";
import { addressKey } from "../protocol/address.js";

export const OUTCOME_PATH = ".cfa/outcome.json";
/** Agents may read `.cfa/` but never write it: the records are the engine's. */
export const PROTECTED_PREFIXES = [".cfa/"];

export function jobPaths(job: number) {
  const dir = `.cfa/jobs/${job}`;
  return {
    dir,
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
