// A file read whole for an in-memory edit (the edit tools' replace and insert): through the
// boundary, at most MAX_EDIT_BYTES, and UTF-8 text, or a FileToolError saying why not.

import type { FileToolOptions } from "./file-tool-options.js";
import { FileToolError } from "./file-tool-error.js";
import { readFileBytes } from "./read-file.js";

// Editing happens in memory; a file this large is not something to edit by exact match.
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

export async function readEditableText(
  root: string,
  requested: string,
  options: FileToolOptions = {},
): Promise<string> {
  const read = await readFileBytes(root, requested, { ...options, maxBytes: MAX_EDIT_BYTES });
  if (read.truncated) {
    throw new FileToolError(
      "too-large",
      requested,
      `the file is over ${MAX_EDIT_BYTES} bytes; edit it with a command instead`,
    );
  }
  const text = read.bytes.toString("utf8");
  if (Buffer.compare(Buffer.from(text, "utf8"), read.bytes) !== 0) {
    throw new FileToolError("not-text", requested, "the file is not UTF-8 text");
  }
  return text;
}
