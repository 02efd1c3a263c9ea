// Publishing the job branch after a commit (a push that loses a race must not end the run): a push
// carries a lease naming the commit the forge's branch must still be at (session.ts `pushedHead`),
// so a branch that moved is never overwritten. When the push is refused — or its answer was lost —
// the branch is read again:
// - it holds our commit: the push had landed (its answer was lost), or it landed and someone
//   pushed on top since; the branch is taken as it is, done;
// - it moved on from the commit we expected (a person pushed to the job branch): their commits
//   are taken in by a merge whose `.cfa/` is ours (the records have one writer, the engine),
//   and that is pushed with a lease naming their head; bounded, `PUBLISH_ATTEMPTS` in all;
// - otherwise (the branch is gone, rewritten, or conflicts with a person's change outside
//   `.cfa/`, or it keeps moving): PushStalledError — an infrastructure wait, not the job's
//   failure: the run ends with the job as committed locally, and the next wake starts again
//   from what the forge holds.

import type { Forge } from "../../ports/forge.js";
import type { JobRepo } from "../tree/job-repo.js";

/** What publishing needs of the session (session.ts), apart from it to keep the import one-way. */
export interface Publisher {
  n: number;
  branch: string;
  repo: JobRepo;
  forge: Forge;
  /** What the forge's branch holds, as far as this wake knows: the lease. */
  pushedHead: string | null;
  note(event: string, detail: string): void;
}

export const PUBLISH_ATTEMPTS = 3;

/** The job branch could not be published: nobody's failure, the job waits (worker/run-job.ts). */
export class PushStalledError extends Error {
  override readonly name = "PushStalledError";
  constructor(
    readonly branch: string,
    reason: string,
  ) {
    super(
      `cfa/engine: ${branch} could not be published: ${reason}; the job waits and the next wake starts from what the forge holds`,
    );
  }
}

/** A refused lease, or a push whose outcome is unknown (the transport failed). */
function mayHaveMoved(error: unknown): boolean {
  const e = error as { name?: string; operation?: string } | undefined;
  return (
    e?.name === "PushRejectedError" ||
    (e?.name === "GitHubForgeError" && e.operation === "git push")
  );
}

/** Publishes `sha`; updates `s.pushedHead` to what the forge's branch then holds. */
export async function publishJobBranch(s: Publisher, sha: string): Promise<void> {
  const branch = s.branch;
  // Published already (a later commit went out first): pushing it would rewind the branch.
  // Not when the commit was made on the head we pushed (the usual case: no other commit came
  // between), which git need not be asked: a commit is never an ancestor of its parent.
  if (
    s.pushedHead !== null &&
    s.repo.parentOf(sha) !== s.pushedHead &&
    (await s.repo.isAncestor(sha, s.pushedHead))
  ) {
    return;
  }
  let head = sha;
  for (let attempt = 1; ; attempt++) {
    try {
      await s.forge.pushBranch(branch, { sha: head, expectedOld: s.pushedHead });
      s.pushedHead = head;
      return;
    } catch (error) {
      if (!mayHaveMoved(error)) throw error;
      const remote = await s.forge.readBranch(branch);
      if (remote === null) throw new PushStalledError(branch, "the branch is gone from the forge");
      if (remote === head || (await s.repo.isAncestor(head, remote))) {
        // Ours is there: the push had landed and its answer was lost.
        if (remote !== head && !(await s.repo.moveTo(remote))) {
          throw new PushStalledError(
            branch,
            `commits pushed on top of ours touch files a turn is writing`,
          );
        }
        s.note("PUSHED", `${branch} already holds ${head.slice(0, 7)}: counted done`);
        s.pushedHead = remote;
        return;
      }
      if (attempt >= PUBLISH_ATTEMPTS) {
        throw new PushStalledError(branch, `it moved ${attempt} times while the engine pushed`);
      }
      if (s.pushedHead !== null && !(await s.repo.isAncestor(s.pushedHead, remote))) {
        throw new PushStalledError(
          branch,
          `its history was rewritten (no longer holds ${s.pushedHead.slice(0, 7)})`,
        );
      }
      const merged = await s.repo.mergeForeign(
        remote,
        `cfa #${s.n}: take in ${remote.slice(0, 7)}, pushed to ${branch} by someone else`,
      );
      if (merged === null || !(await s.repo.moveTo(merged))) {
        throw new PushStalledError(
          branch,
          `a commit pushed to it (${remote.slice(0, 7)}) conflicts with the engine's`,
        );
      }
      s.note("TAKE-IN", `${remote.slice(0, 7)} was pushed to ${branch}: merged, pushing again`);
      head = merged;
      s.pushedHead = remote;
    }
  }
}
