// The package caches a job's workspaces share: one folder
// per tool in the job's area, outside every worktree and hidden from commands except through
// its own bind, so the second workspace's `npm ci` is served from what the first fetched.
// Per job, not per runner: a command can write the cache the job's other workspaces read
// (npm and cargo check what they take against the lockfile's hashes), so no job's agents can
// write what another job's setup installs.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_TOOLS, type SharedCache } from "../../ports/sandbox.js";

export async function sharedCaches(area: string): Promise<SharedCache[]> {
  const caches = CACHE_TOOLS.map((tool) => ({ tool, path: join(area, "caches", tool) }));
  for (const cache of caches) await mkdir(cache.path, { recursive: true });
  return caches;
}
