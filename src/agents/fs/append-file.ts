// Appending to a file inside the workspace (the engine's logs: bus.jsonl, transcripts, the
// proxy's memory): the same boundary check as every write, parents created one by one from
// the root, and the file opened from its directory held by descriptor without following a
// link, so an append never lands outside the workspace. One write per call: a
// crash cuts at most the tail of this append.

import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { unanchored } from "./anchored-dir.js";
import { FileToolError } from "./file-tool-error.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { openParentForWrite } from "./open-parent-for-write.js";
import { toFileError } from "./to-file-error.js";
import { verifyOpened } from "./verify-opened.js";

// O_NONBLOCK: a FIFO planted at the path fails (ENXIO) instead of hanging the engine.
const APPEND_FLAGS =
  constants.O_RDWR |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NOFOLLOW |
  constants.O_NONBLOCK;

export interface AppendFileResult {
  /** Root-relative path of the file appended to, with `/` separators. */
  path: string;
  bytes: number;
  created: boolean;
}

export async function appendFile(
  root: string,
  requested: string,
  content: string | Uint8Array,
  options: FileToolOptions & {
    /**
     * Sees what the file holds before the append, on the very file appended to; throws to
     * refuse it (the engine: a record someone else changed is not appended to).
     */
    check?: (existing: Buffer) => void;
  } = {},
): Promise<AppendFileResult> {
  const { real, rootReal, dir } = await openParentForWrite(root, requested, options);
  try {
    if (dir.mode === "path") throw unanchored(requested);
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    let handle: FileHandle;
    try {
      handle = await open(dir.at(path.basename(real)), APPEND_FLAGS, 0o644);
    } catch (error) {
      throw toFileError(error, requested);
    }
    try {
      // The handle must be the very file checked, still at its path, with no other name:
      // a hard link to a file outside, swapped in and its inside name removed again after
      // the open, shows as a deleted path here (a raced operation).
      const stats = await verifyOpened(handle, real, requested);
      if (!stats.isFile()) {
        throw new FileToolError("not-a-file", requested, "it is not a regular file");
      }
      if (options.check) {
        const existing = Buffer.alloc(Number(stats.size));
        let filled = 0;
        while (filled < existing.length) {
          const { bytesRead } = await handle.read(
            existing,
            filled,
            existing.length - filled,
            filled,
          );
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        options.check(existing.subarray(0, filled));
      }
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
      return {
        path: path.relative(rootReal, real),
        bytes: bytes.length,
        created: stats.size === 0,
      };
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}
