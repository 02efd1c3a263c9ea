// A full disk — no space left (ENOSPC, the same errno when the inode table is full) or a
// quota exceeded (EDQUOT) — at a write, a commit or a git command. It is the
// machine's state, not the job's: an infrastructure fault like the model's API being away
// (ModelUnavailableError), never a protocol failure and never a retry spent. The engine
// pauses the job (the status comment says the runner's disk is full and what to do) and
// carries on at the next wake, once there is space again.
//
// Recognised by the errno Node gives (`code`, on the error or any `cause`), or by the
// strerror git prints at the end of a failing step ("fatal: unable to write loose object
// file: No space left on device", "fatal: Unable to create '…/index.lock': No space left on
// device"), or git's own words for a short write of the index ("fatal: sha1 file '…' write
// error. Out of diskspace", csum-file.c). Only at a line's end after ": ": a file an agent
// names "No space left on device" appears in git's messages quoted, so it cannot pass for
// the machine's state and pause the job at will.

const CODES = new Set(["ENOSPC", "EDQUOT"]);
const GIT_STRERROR =
  /(?:: (?:No space left on device|Disk quota exceeded)|^fatal: sha1 file '.*' write error\. Out of diskspace)$/mu;
const MAX_CHAIN = 8;

/** Whether `error`, or an error it wraps, is the disk being full. */
export function isDiskFull(error: unknown): boolean {
  return diskFullDetail(error) !== null;
}

/** The line that says so (an errno's message, or git's), or null when the disk is not full. */
export function diskFullDetail(error: unknown): string | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < MAX_CHAIN) {
    const next = queue.shift();
    if (next === null || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    const { code, message, cause, name } = next as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      name?: unknown;
    };
    if (typeof code === "string" && CODES.has(code)) {
      return typeof message === "string" ? message.split("\n")[0]!.slice(0, 300) : code;
    }
    if (name === "GitCommandError" && typeof message === "string") {
      const line = message.split("\n").find((text) => GIT_STRERROR.test(text));
      if (line !== undefined) return line.slice(0, 300);
    }
    if (cause !== undefined) queue.push(cause);
    if (next instanceof AggregateError) queue.push(...(next.errors as unknown[]));
  }
  return null;
}
