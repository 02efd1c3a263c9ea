// Writing a file for an agent's tool: boundary check (protected prefixes included), create
// missing parents one by one inside the root, write a temporary file in the same directory,
// then rename it over the target, so a crash leaves the old file or the new, never half.
// Every step is anchored to a directory held by descriptor; where that is impossible (no
// /proc) the write is refused before anything is created.

import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { lstat, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { BoundaryError } from "../boundary/boundary-error.js";
import { unanchored } from "./anchored-dir.js";
import { FileToolError } from "./file-tool-error.js";
import type { FileToolOptions } from "./file-tool-options.js";
import { openParentForWrite } from "./open-parent-for-write.js";
import { toFileError } from "./to-file-error.js";

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const DEFAULT_MODE = 0o644;

export interface WriteFileResult {
  /** Root-relative path of the file written, with `/` separators. */
  path: string;
  bytes: number;
  created: boolean;
}

export async function writeFile(
  root: string,
  requested: string,
  content: string | Uint8Array,
  options: FileToolOptions & {
    /**
     * false: skip the fsyncs. For the engine's records, whose durability is the commit
     * that follows (a crash before it drops the whole turn anyway:
     * docs/protocol.md#persistence).
     */
    durable?: boolean;
  } = {},
): Promise<WriteFileResult> {
  const durable = options.durable ?? true;
  const { real, rootReal, dir } = await openParentForWrite(root, requested, options);
  const base = path.basename(real);
  const temp = `.cfa-tmp-${randomBytes(8).toString("hex")}`;
  let tempCreated = false;
  try {
    if (dir.mode === "path") throw unanchored(requested);
    const existing = await lstatOrUndefined(dir.at(base), requested);
    if (existing?.isDirectory()) {
      throw new FileToolError("is-a-directory", requested, "it is a directory, not a file");
    }
    if (existing?.isFile() && existing.nlink > 1) {
      throw new BoundaryError(
        requested,
        "hard-link",
        "the file has other hard links, which may live outside",
      );
    }
    const mode = existing?.isFile() ? existing.mode & 0o7777 : DEFAULT_MODE;
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;

    try {
      const handle = await open(dir.at(temp), TEMP_FLAGS, mode);
      tempCreated = true;
      try {
        await handle.writeFile(bytes);
        // Keep an existing file's exact mode (open applies the umask).
        if (existing?.isFile()) await handle.chmod(mode);
        if (durable) await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw toFileError(error, requested);
    }

    await dir.recheck();
    try {
      await rename(dir.at(temp), dir.at(base));
      tempCreated = false;
    } catch (error) {
      throw toFileError(error, requested);
    }
    if (durable) await dir.sync();
    return { path: path.relative(rootReal, real), bytes: bytes.length, created: !existing };
  } finally {
    if (tempCreated) await unlink(dir.at(temp)).catch(() => undefined);
    await dir.close();
  }
}

async function lstatOrUndefined(target: string, requested: string): Promise<Stats | undefined> {
  try {
    return await lstat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw toFileError(error, requested);
  }
}
