// An exact, unique text replacement: the edit tool changes one place the agent names
// precisely, or nothing, and says how to fix the request when it is ambiguous.

import type { FileToolOptions } from "./file-tool-options.js";
import { FileToolError } from "./file-tool-error.js";
import { readFileBytes } from "./read-file.js";
import { writeFile } from "./write-file.js";

// Editing happens in memory; a file this large is not something to edit by exact match.
export const MAX_EDIT_BYTES = 16 * 1024 * 1024;

export interface EditFileResult {
  path: string;
  /** 1-based line where the replaced text started. */
  line: number;
}

export async function editFile(
  root: string,
  requested: string,
  oldText: string,
  newText: string,
  options: FileToolOptions = {},
): Promise<EditFileResult> {
  if (oldText === "") {
    throw new FileToolError(
      "empty-match",
      requested,
      "the text to replace is empty; give the exact text to change, or write the whole file",
    );
  }
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

  const first = text.indexOf(oldText);
  if (first === -1) {
    throw new FileToolError(
      "no-match",
      requested,
      "the text to replace was not found; read the file and copy the text exactly (whitespace and line endings included)",
    );
  }
  const count = countOccurrences(text, oldText);
  if (count > 1) {
    throw new FileToolError(
      "ambiguous-match",
      requested,
      `the text to replace occurs ${count} times; include more surrounding lines so it is unique`,
    );
  }
  // slice, not String.replace: `$&` and friends in newText must stay literal.
  const updated = text.slice(0, first) + newText + text.slice(first + oldText.length);
  const written = await writeFile(root, requested, updated, options);
  return { path: written.path, line: text.slice(0, first).split("\n").length };
}

/** Occurrences at distinct offsets, overlapping ones included ("aa" is twice in "aaa"). */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}
