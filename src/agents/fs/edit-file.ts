// An exact, unique text replacement: the edit tool changes one place the agent names
// precisely, or nothing, and says how to fix the request when it is ambiguous.

import type { FileToolOptions } from "./file-tool-options.js";
import { FileToolError } from "./file-tool-error.js";
import { readEditableText } from "./read-editable-text.js";
import { writeFile } from "./write-file.js";

export { MAX_EDIT_BYTES } from "./read-editable-text.js";

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
  const text = await readEditableText(root, requested, options);

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
