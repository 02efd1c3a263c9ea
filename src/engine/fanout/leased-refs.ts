// Every push and branch deletion of the fanned-out job carries a lease naming the commit the
// ref must still be at (every ref keeps one writer). A lease that names a
// commit cannot re-create a deleted branch, nor overwrite another writer's commit; the one
// lease that expects a ref to be absent is the lead's creation of a task branch, made once
// for a task its state has never created (git's `--force-with-lease=<ref>:` with an empty
// value re-creates a branch someone deleted: test/integration/github/publish-job-branch.test.ts).
// Several refs go in one atomic push (`git push --atomic`): the job branch's state and the
// task branches it creates or deletes move together, or none does.
//
// A push whose answer was lost (the transport failed after the remote took it) is recognised
// by reading the remote again: every ref at the commit we pushed counts as done.

/** Runs git in the caller's clone; rejects on a non-zero exit. */
export type RunGit = (args: string[], options?: { signal?: AbortSignal }) => Promise<string>;

/**
 * A commit of what is staged (of `paths` only, when given) by a runner's git: no hooks, no
 * signing — the tree is the agent's, so nothing of it runs, and no key is at hand.
 */
export async function commitStaged(
  git: RunGit,
  message: string,
  paths: readonly string[] = [],
): Promise<void> {
  const only = paths.length > 0 ? ["--", ...paths] : [];
  await git(["commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message, ...only]);
}

export type Lease = { sha: string } | { absent: true };

export interface RefUpdate {
  /** Full ref name, refs/heads/… */
  ref: string;
  /** The commit to set, or null to delete. */
  to: string | null;
  lease: Lease;
}

export type PushOutcome =
  | { kind: "pushed" }
  /** Refused or unknown, but the remote holds every update: the answer was lost. */
  | { kind: "landed" }
  /** Refused: some ref is not where its lease said; `remote` is what it holds now. */
  | { kind: "moved"; remote: Record<string, string | null> };

const SHA = /^[0-9a-f]{40}$/;

export function leaseArg(u: RefUpdate): string {
  if ("absent" in u.lease) {
    if (u.to === null)
      throw new Error(`cfa/engine: deleting ${u.ref} needs a lease naming its commit`);
    return `--force-with-lease=${u.ref}:`;
  }
  if (!SHA.test(u.lease.sha)) throw new Error(`cfa/engine: a lease on ${u.ref} names no commit`);
  return `--force-with-lease=${u.ref}:${u.lease.sha}`;
}

/** What the remote's refs point at now (null: absent). */
export async function readRemoteRefs(
  git: RunGit,
  remote: string,
  refs: readonly string[],
): Promise<Record<string, string | null>> {
  const out = await git(["ls-remote", remote, ...refs]);
  const found: Record<string, string | null> = Object.fromEntries(refs.map((r) => [r, null]));
  for (const line of out.split("\n")) {
    const [sha, ref] = line.trim().split(/\s+/);
    if (sha && ref && ref in found) found[ref] = sha;
  }
  return found;
}

export async function pushLeased(
  git: RunGit,
  remote: string,
  updates: readonly RefUpdate[],
  options: { pushOptions?: string[]; signal?: AbortSignal } = {},
): Promise<PushOutcome> {
  if (updates.length === 0) return { kind: "pushed" };
  const args = ["push", "--quiet", "--atomic", "--no-verify"];
  for (const o of options.pushOptions ?? []) args.push(`--push-option=${o}`);
  for (const u of updates) args.push(leaseArg(u));
  args.push(remote);
  for (const u of updates) args.push(u.to === null ? `:${u.ref}` : `${u.to}:${u.ref}`);
  try {
    await git(args, options.signal ? { signal: options.signal } : {});
    return { kind: "pushed" };
  } catch (error) {
    if (options.signal?.aborted) throw error;
  }
  const remoteRefs = await readRemoteRefs(
    git,
    remote,
    updates.map((u) => u.ref),
  );
  if (updates.every((u) => remoteRefs[u.ref] === u.to)) return { kind: "landed" };
  return { kind: "moved", remote: remoteRefs };
}
