// Reading a file for an agent's tool: boundary check, open without following a link from a
// directory held by descriptor, re-check the handle, read at most `maxBytes`.

import { constants, realpathSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { resolveInWorkspace } from "../boundary/resolve-in-workspace.js";
import { openDirInside } from "./anchored-dir.js";
import { FileToolError } from "./file-tool-error.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { toFileError } from "./to-file-error.js";
import { verifyOpened } from "./verify-opened.js";

export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;

// O_NONBLOCK so a FIFO planted in the workspace cannot hang the tool; files ignore it.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface ReadBytesResult {
  /** Root-relative path of the file read, with `/` separators. */
  path: string;
  bytes: Buffer;
  /** The file's whole size; more than `bytes.length` when truncated. */
  size: number;
  truncated: boolean;
}

export interface ReadFileResult {
  path: string;
  content: string;
  size: number;
  truncated: boolean;
}

export async function readFileBytes(
  root: string,
  requested: string,
  options: FileToolOptions & { maxBytes?: number } = {},
): Promise<ReadBytesResult> {
  const real = resolveInWorkspace(root, requested, {
    protect: options.protect ?? [],
    noLinks: options.noLinks ?? false,
  });
  const rootReal = realpathSync(root);
  if (real === rootReal) {
    throw new FileToolError("is-a-directory", requested, "it is the workspace root, not a file");
  }
  await options.seam?.beforeOpen?.(real);
  const dir = await openDirInside(rootReal, path.relative(rootReal, path.dirname(real)), {
    create: false,
    requested,
    pathOnly: options.seam?.pathOnly ?? false,
  });
  try {
    let handle: FileHandle;
    try {
      handle = await open(dir.at(path.basename(real)), READ_FLAGS);
    } catch (error) {
      throw toFileError(error, requested);
    }
    try {
      const stats = await verifyOpened(handle, real, requested);
      if (stats.isDirectory()) {
        throw new FileToolError("is-a-directory", requested, "it is a directory, not a file");
      }
      if (!stats.isFile()) {
        throw new FileToolError("not-a-file", requested, "it is not a regular file");
      }
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
      const bytes = await readUpTo(handle, Math.min(stats.size, maxBytes));
      return {
        path: path.relative(rootReal, real),
        bytes,
        size: stats.size,
        truncated: stats.size > bytes.length,
      };
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}

export async function readFile(
  root: string,
  requested: string,
  options: FileToolOptions & { maxBytes?: number } = {},
): Promise<ReadFileResult> {
  const { path: relative, bytes, size, truncated } = await readFileBytes(root, requested, options);
  return { path: relative, content: bytes.toString("utf8"), size, truncated };
}

async function readUpTo(handle: FileHandle, limit: number): Promise<Buffer> {
  const buffer = Buffer.alloc(limit);
  let filled = 0;
  while (filled < limit) {
    const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
