// Checks the folders a request binds read-write besides the workspace — the shared caches
// (one per tool) and the workspace's private home: each an existing folder outside the
// workspace (and not holding it), not a system or toolchain folder, not holding the job area
// the sandbox hides. A caller's mistake is a SandboxRequestError.

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
  folders: WritableFolderRules,
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
    out.push({
      tool: cache.tool,
      path: await validateWritableFolder(field, cache.path, cwd, folders),
    });
  }
  return out;
}

export interface WritableFolderRules {
  /** Shown read-only (toolchains): a writable folder may neither be in one nor hold one. */
  readOnly: readonly string[];
  /** Hidden (the job area): one may be inside one (its bind shows just it), never hold one. */
  hidden: readonly string[];
}

/**
 * A host folder a request binds read-write besides the workspace (a shared cache, the
 * workspace's private home): existing, outside the workspace and not holding it, not a
 * system or toolchain folder, not holding the hidden job area. Its real path.
 */
export async function validateWritableFolder(
  field: string,
  folder: string,
  cwd: string,
  rules: WritableFolderRules,
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
    [...FORBIDDEN, ...rules.readOnly].some(
      (shown) => isWithin(real, shown) || isWithin(shown, real),
    )
  ) {
    throw new SandboxRequestError(field, `overlaps a folder the sandbox shows read-only: ${real}`);
  }
  if (rules.hidden.some((hidden) => isWithin(hidden, real))) {
    throw new SandboxRequestError(field, `holds the job area, which the sandbox hides: ${real}`);
  }
  return real;
}
