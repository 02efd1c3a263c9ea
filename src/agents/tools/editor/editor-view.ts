// The editor's `view`: a file's lines numbered as `cat -n` prints them, whole or a view_range
// (1-based, -1 for "to the end"), cut at the tool's max_characters; or a folder's files and
// folders two levels deep, hidden ones left out (the reference implementation's listing:
// anthropics/anthropic-quickstarts, computer-use-demo/computer_use_demo/tools/edit.py). Every
// read goes through the workspace boundary (src/agents/fs).

import { listFiles } from "../../fs/list-files.js";
import { readFile } from "../../fs/read-file.js";
import { FileToolError } from "../../fs/file-tool-error.js";
import { fail, ok, type ToolContext, type ToolResult } from "../tool.js";
import { linesOf, numberedLines } from "./numbered-lines.js";

/** Entries a folder's view lists at most. */
const LIST_LIMIT = 400;
/** Folders whose content a view never lists: installed dependencies, not the project. */
const NOT_LISTED = new Set(["node_modules", "__pycache__", ".venv", "venv", "target"]);

/** What a view showed, and whether the path was a folder. */
export interface View {
  result: ToolResult;
  kind: "file" | "folder";
}

export async function viewPath(
  ctx: ToolContext,
  path: string,
  range: readonly [number, number] | undefined,
  maxCharacters: number,
): Promise<View> {
  const root = ctx.workspace.root;
  const protect = ctx.workspace.protect;
  try {
    const read = await readFile(root, path, { protect, maxBytes: ctx.limits.readBytes });
    return { result: viewFile(read, range, maxCharacters, ctx.limits.readBytes), kind: "file" };
  } catch (error) {
    if (!(error instanceof FileToolError) || error.code !== "is-a-directory") throw error;
  }
  if (range !== undefined) {
    return {
      result: fail(`The view_range parameter is not allowed when ${path} is a folder.`),
      kind: "folder",
    };
  }
  return { result: await viewFolder(ctx, path), kind: "folder" };
}

function viewFile(
  read: { path: string; content: string; size: number; truncated: boolean },
  range: readonly [number, number] | undefined,
  maxCharacters: number,
  readBytes: number,
): ToolResult {
  if (read.content.includes("\u0000")) {
    return ok(`${read.path} is a binary file (${read.size} bytes); its content is not shown.`);
  }
  if (read.size === 0) return ok(`${read.path} is empty.`);
  const lines = linesOf(read.content);
  let first = 1;
  let shown = lines;
  if (range !== undefined) {
    const [start, end] = range;
    const count = lines.length;
    if (start < 1 || start > count) {
      return fail(
        `Invalid view_range [${start}, ${end}]: its first element should be a line of the file, between 1 and ${count}.`,
      );
    }
    if (end !== -1 && (end < start || end > count)) {
      return fail(
        `Invalid view_range [${start}, ${end}]: its second element should be -1 (to the end) or a line between ${start} and ${count}.`,
      );
    }
    first = start;
    shown = lines.slice(start - 1, end === -1 ? undefined : end);
  }
  let body = numberedLines(shown, first);
  const notes: string[] = [];
  if (body.length > maxCharacters) {
    const cut = body.lastIndexOf("\n", maxCharacters);
    body = body.slice(0, cut > 0 ? cut : maxCharacters);
    const lastShown = first + body.split("\n").length - 1;
    notes.push(
      `[cut at ${maxCharacters.toLocaleString("en-US")} characters, after line ${lastShown}: view the rest with a view_range, or find the lines with grep -n]`,
    );
  }
  if (read.truncated) {
    notes.push(
      `[the file has ${read.size.toLocaleString("en-US")} bytes; only the first ${readBytes.toLocaleString("en-US")} were read]`,
    );
  }
  const what =
    range === undefined ? read.path : `lines ${first}–${first + shown.length - 1} of ${read.path}`;
  return ok(
    `Here's the result of running \`cat -n\` on ${what}:\n${body}\n${notes.map((n) => `${n}\n`).join("")}`,
  );
}

async function viewFolder(ctx: ToolContext, path: string): Promise<ToolResult> {
  const root = ctx.workspace.root;
  const protect = ctx.workspace.protect;
  const shown = path === "." ? "" : path;
  const lines: string[] = [];
  let cut = false;
  /** A folder's visible entries, each folder's own right after it, down to `depth` 2. */
  const walk = async (folder: string, depth: number): Promise<void> => {
    const listed = await listFiles(root, folder, { protect, limit: LIST_LIMIT });
    cut ||= listed.truncated;
    for (const entry of listed.entries) {
      const name = entry.path.split("/").at(-1) ?? entry.path;
      if (name.startsWith(".")) continue;
      if (lines.length >= LIST_LIMIT) {
        cut = true;
        return;
      }
      lines.push(entry.type === "dir" ? `${entry.path}/` : entry.path);
      if (entry.type === "dir" && depth < 2 && !NOT_LISTED.has(name)) {
        await walk(entry.path, depth + 1);
      }
    }
  };
  await walk(shown, 1);
  const where = shown === "" ? "the workspace root" : shown;
  const head = `Here are the files and folders up to 2 levels deep in ${where}, hidden items left out:`;
  const tail = cut ? `\n[cut at ${LIST_LIMIT} entries: view a sub-folder to see more]` : "";
  return ok(`${head}\n${lines.length === 0 ? "(empty)" : lines.join("\n")}${tail}\n`);
}
