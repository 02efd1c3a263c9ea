// The editor's `insert`: text after line `insert_line` of a file (0: before the first line),
// the file read and written back through the workspace boundary (src/agents/fs).

import { FileToolError } from "../../fs/file-tool-error.js";
import { readEditableText } from "../../fs/read-editable-text.js";
import { writeFile } from "../../fs/write-file.js";
import type { FileToolOptions } from "../../fs/file-tool-options.js";

export interface InsertResult {
  path: string;
  /** The file's lines after the insert. */
  lines: string[];
  /** 1-based line of the first inserted line. */
  at: number;
  inserted: number;
}

export async function insertLines(
  root: string,
  requested: string,
  after: number,
  text: string,
  options: FileToolOptions,
): Promise<InsertResult> {
  const content = await readEditableText(root, requested, options);
  const endsWithNewline = content.endsWith("\n");
  const lines = content === "" ? [] : content.split("\n");
  if (endsWithNewline) lines.pop();
  if (after > lines.length) {
    throw new FileToolError(
      "no-match",
      requested,
      `insert_line ${after} is past the end: the file has ${lines.length} lines; give a line between 0 and ${lines.length}`,
    );
  }
  const added = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  const updated = [...lines.slice(0, after), ...added, ...lines.slice(after)];
  const written = await writeFile(
    root,
    requested,
    `${updated.join("\n")}${endsWithNewline || lines.length === 0 ? "\n" : ""}`,
    options,
  );
  return { path: written.path, lines: updated, at: after + 1, inserted: added.length };
}
