// The editor's `insert`: text after line `insert_line` of a file (0: before the first line),
// the file read and written back through the workspace boundary (src/agents/fs).

import { FileToolError } from "../../fs/file-tool-error.js";
import { MAX_EDIT_BYTES } from "../../fs/edit-file.js";
import { readFileBytes } from "../../fs/read-file.js";
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
  const read = await readFileBytes(root, requested, { ...options, maxBytes: MAX_EDIT_BYTES });
  if (read.truncated) {
    throw new FileToolError(
      "too-large",
      requested,
      `the file is over ${MAX_EDIT_BYTES} bytes; edit it with a command instead`,
    );
  }
  const content = read.bytes.toString("utf8");
  if (Buffer.compare(Buffer.from(content, "utf8"), read.bytes) !== 0) {
    throw new FileToolError("not-text", requested, "the file is not UTF-8 text");
  }
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
