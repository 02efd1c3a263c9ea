// The first step every write and append takes, so neither lands outside: the boundary check for a
// write (protected prefixes, links where refused), then the target's parent folder opened from the
// root one component at a time, created where missing, and held by descriptor. Shared so the
// two cannot drift apart: a check added to one would otherwise be missing from the other.

import { realpathSync } from "node:fs";
import path from "node:path";
import { resolveInWorkspace } from "../boundary/resolve-in-workspace.js";
import { openDirInside, type AnchoredDir } from "./anchored-dir.js";
import type { FileToolOptions } from "./file-tool-options.js";

export interface OpenedParent {
  /** The target's real path, checked against the boundary. */
  real: string;
  /** The workspace root's real path. */
  rootReal: string;
  /** The target's parent folder; the caller closes it. */
  dir: AnchoredDir;
}

export async function openParentForWrite(
  root: string,
  requested: string,
  options: FileToolOptions,
): Promise<OpenedParent> {
  const real = resolveInWorkspace(root, requested, {
    forWrite: true,
    protect: options.protect ?? [],
    noLinks: options.noLinks ?? false,
  });
  const rootReal = realpathSync(root);
  await options.seam?.beforeOpen?.(real);
  const dir = await openDirInside(rootReal, path.relative(rootReal, path.dirname(real)), {
    create: true,
    requested,
    pathOnly: options.seam?.pathOnly ?? false,
  });
  return { real, rootReal, dir };
}
