// The re-check after opening (the TOCTOU half of the boundary): the handle we hold must be
// the very file the boundary check resolved. The kernel's own name for the descriptor, the
// device/inode of a fresh lstat and a fresh realpath must all agree with the checked path.

import type { Stats } from "node:fs";
import { lstat, realpath, type FileHandle } from "node:fs/promises";
import { BoundaryError } from "../boundary/boundary-error.js";
import { changed, descriptorPath } from "./anchored-dir.js";

export async function verifyOpened(
  handle: FileHandle,
  expected: string,
  requested: string,
): Promise<Stats> {
  const held = await handle.stat();
  const kernelPath = await descriptorPath(handle.fd);
  if (kernelPath !== undefined && kernelPath !== expected) throw changed(requested);
  let now: Stats;
  let real: string;
  try {
    [now, real] = await Promise.all([lstat(expected), realpath(expected)]);
  } catch (error) {
    throw changed(requested, error);
  }
  if (now.isSymbolicLink() || now.dev !== held.dev || now.ino !== held.ino || real !== expected) {
    throw changed(requested);
  }
  // A hard link added after the check would let the file be read or changed from elsewhere.
  if (held.isFile() && held.nlink > 1) {
    throw new BoundaryError(
      requested,
      "hard-link",
      "the file has other hard links, which may live outside",
    );
  }
  return held;
}
