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

export async function validateCaches(
  caches: readonly SharedCache[],
  cwd: string,
  folders: {
    /** Shown read-only (toolchains): a cache may neither be in one nor hold one. */
    readOnly: readonly string[];
    /** Hidden (the job area): a cache may be inside one (its bind shows just it), never hold one. */
    hidden: readonly string[];
  },
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
    if (!path.isAbsolute(cache.path)) {
      throw new SandboxRequestError(field, `must be an absolute path (got ${cache.path})`);
    }
    const real = await realpath(cache.path).catch(() => null);
    if (real === null || !(await stat(real)).isDirectory()) {
      throw new SandboxRequestError(field, `is not an existing folder: ${cache.path}`);
    }
    if (real === "/" || isWithin(real, cwd) || isWithin(cwd, real)) {
      throw new SandboxRequestError(
        field,
        `must be outside the workspace and not hold it: ${real}`,
      );
    }
    if (
      [...FORBIDDEN, ...folders.readOnly].some(
        (folder) => isWithin(real, folder) || isWithin(folder, real),
      )
    ) {
      throw new SandboxRequestError(
        field,
        `overlaps a folder the sandbox shows read-only: ${real}`,
      );
    }
    if (folders.hidden.some((folder) => isWithin(folder, real))) {
      throw new SandboxRequestError(field, `holds the job area, which the sandbox hides: ${real}`);
    }
    out.push({ tool: cache.tool, path: real });
  }
  return out;
}
