// Checks the shared caches a request binds read-write (issue 20): each an existing folder
// outside the workspace (and not holding it), not a system or toolchain folder, not inside
// the job area the sandbox hides, one per tool. A caller's mistake is a SandboxRequestError.

import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { CACHE_TOOLS, type SharedCache } from "../../ports/sandbox.js";
import { isWithin } from "./bwrap-args.js";
import { SandboxRequestError } from "./errors.js";

/** Folders a cache may never be or be inside: what the sandbox shows read-only or never. */
const FORBIDDEN = [
  "/usr",
  "/etc",
  "/proc",
  "/sys",
  "/dev",
  "/run",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
];

/** A folder bound read-write outside the workspace (a cache, the bash session's state). */
export interface BoundFolders {
  /** Shown read-only (toolchains): a bound folder may neither be in one nor hold one. */
  readOnly: readonly string[];
  /** Hidden (the job area): a bound folder may be inside one (its bind shows just it), never hold one. */
  hidden: readonly string[];
}

/** The real path of a folder the sandbox may bind read-write, or a SandboxRequestError. */
export async function validateWritableFolder(
  field: string,
  folder: string,
  cwd: string,
  folders: BoundFolders,
): Promise<string> {
  if (!path.isAbsolute(folder)) {
    throw new SandboxRequestError(field, `must be an absolute path (got ${folder})`);
  }
  const real = await realpath(folder).catch(() => null);
  if (real === null || !(await stat(real)).isDirectory()) {
    throw new SandboxRequestError(field, `is not an existing folder: ${folder}`);
  }
  if (real === "/" || isWithin(real, cwd) || isWithin(cwd, real)) {
    throw new SandboxRequestError(field, `must be outside the workspace and not hold it: ${real}`);
  }
  if (
    [...FORBIDDEN, ...folders.readOnly].some(
      (other) => isWithin(real, other) || isWithin(other, real),
    )
  ) {
    throw new SandboxRequestError(field, `overlaps a folder the sandbox shows read-only: ${real}`);
  }
  if (folders.hidden.some((other) => isWithin(other, real))) {
    throw new SandboxRequestError(field, `holds the job area, which the sandbox hides: ${real}`);
  }
  return real;
}

export async function validateCaches(
  caches: readonly SharedCache[],
  cwd: string,
  folders: BoundFolders,
): Promise<SharedCache[]> {
  const out: SharedCache[] = [];
  for (const [i, cache] of caches.entries()) {
    const field = `caches[${i}]`;
    if (!(CACHE_TOOLS as readonly string[]).includes(cache.tool)) {
      throw new SandboxRequestError(field, `names an unknown tool ${JSON.stringify(cache.tool)}`);
    }
    if (out.some((c) => c.tool === cache.tool)) {
      throw new SandboxRequestError(field, `is a second ${cache.tool} cache`);
    }
    const real = await validateWritableFolder(field, cache.path, cwd, folders);
    out.push({ tool: cache.tool, path: real });
  }
  return out;
}
