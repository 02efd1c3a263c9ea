// str_replace_based_edit_tool: Anthropic's text editor tool, `text_editor_20250728`
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/text-editor-tool), run on
// the workspace: view a file or a folder, create a file, replace one exact unique text,
// insert lines. Every path passes the workspace boundary (src/agents/boundary through
// src/agents/fs: resolved, links followed and checked, `.git` and the engine's records
// refused) and the file-size limits of the file tools; a read-only workspace (the verifier's,
// the proxy's) only views. Results follow the tool's conventions: `cat -n` numbered lines,
// a numbered snippet after an edit, errors as error results the model can act on.

import { removeShapedFoldersAround } from "../../git/remove-shaped-folders.js";
import { shapedFolderNote } from "../../git/repository-shape.js";
import { editFile } from "../fs/edit-file.js";
import { FileToolError } from "../fs/file-tool-error.js";
import { readFile } from "../fs/read-file.js";
import { writeFile } from "../fs/write-file.js";
import { fail, ok, type Tool, type ToolContext, type ToolResult } from "./tool.js";
import { refuseIfReadOnly } from "./writable.js";
import {
  EDITOR_MAX_CHARACTERS,
  EditorInputSchema,
  type EditorInput,
} from "./editor/editor-input.js";
import { editorPath } from "./editor/editor-path.js";
import { insertLines } from "./editor/editor-insert.js";
import { linesOf, numberedLines } from "./editor/numbered-lines.js";
import { viewPath } from "./editor/editor-view.js";

/** Lines of context around an edit in the snippet its result shows. */
const SNIPPET_LINES = 4;

export const editorTool: Tool<typeof EditorInputSchema> = {
  name: "str_replace_based_edit_tool",
  client: {
    type: "text_editor_20250728",
    name: "str_replace_based_edit_tool",
    max_characters: EDITOR_MAX_CHARACTERS,
  },
  description:
    "Anthropic's text editor tool: view a file (with line numbers, or a view_range) or a folder, create a file, replace one exact unique text (str_replace), insert text after a line.",
  input: EditorInputSchema,
  async run(input, ctx) {
    const mapped = editorPath(ctx.workspace.root, input.path);
    if ("refused" in mapped) return fail(mapped.refused);
    const { result, kind } =
      input.command === "view"
        ? await viewPath(ctx, mapped.path, input.view_range, EDITOR_MAX_CHARACTERS)
        : { result: await change(input, mapped.path, ctx), kind: "file" as const };
    if (result.isError) return result;
    const near = ctx.nearbyInstructions?.(mapped.path, kind) ?? "";
    return near === "" ? result : { ...result, text: `${result.text}\n${near}` };
  },
};

async function change(
  input: Exclude<EditorInput, { command: "view" }>,
  path: string,
  ctx: ToolContext,
): Promise<ToolResult> {
  const options = { protect: ctx.workspace.protect };
  const root = ctx.workspace.root;
  switch (input.command) {
    case "create": {
      const refused = refuseIfReadOnly(ctx);
      if (refused) return refused;
      // Created, or replaced whole: Claude Code's file writes do both, and a lead rewrites its
      // artifact this way.
      const written = await writeFile(root, path, input.file_text, options);
      // A folder this write made shaped like a bare repository is removed (repository-shape.ts).
      const removed = await removeShapedFoldersAround(root, written.path);
      const note = removed.map((folder) => ` ${shapedFolderNote(folder)}`).join("");
      return ok(
        `${written.created ? "File created successfully at" : "File overwritten"}: ${written.path} (${written.bytes} bytes).${note}`,
      );
    }
    case "str_replace": {
      const refused = refuseIfReadOnly(ctx);
      if (refused) return refused;
      const newText = input.new_str ?? "";
      let edited: { path: string; line: number };
      try {
        edited = await editFile(root, path, input.old_str, newText, options);
      } catch (error) {
        if (error instanceof FileToolError && error.code === "no-match") {
          return fail(
            `No replacement was performed: old_str did not appear verbatim in ${path}. View the file and copy the text exactly, whitespace included.`,
          );
        }
        if (error instanceof FileToolError && error.code === "ambiguous-match") {
          return fail(
            `No replacement was performed: old_str occurs more than once in ${path} (${error.message.replace(/^.*: /, "")}). Make it unique with more surrounding lines.`,
          );
        }
        throw error;
      }
      return ok(await editedSnippet(ctx, edited.path, edited.line, newText.split("\n").length));
    }
    case "insert": {
      const refused = refuseIfReadOnly(ctx);
      if (refused) return refused;
      const text = input.insert_text ?? input.new_str ?? "";
      const done = await insertLines(root, path, input.insert_line, text, options);
      const start = Math.max(1, done.at - SNIPPET_LINES);
      const end = Math.min(done.lines.length, done.at + done.inserted - 1 + SNIPPET_LINES);
      return ok(
        `The file ${done.path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numberedLines(done.lines.slice(start - 1, end), start)}\nReview the changes and make sure they are as expected (indentation, no duplicate lines). Edit the file again if necessary.\n`,
      );
    }
    default: {
      const unreachable: never = input;
      return unreachable;
    }
  }
}

/** The edited lines with a few around them, read back from the file as it now is. */
async function editedSnippet(
  ctx: ToolContext,
  path: string,
  line: number,
  newLines: number,
): Promise<string> {
  const read = await readFile(ctx.workspace.root, path, {
    protect: ctx.workspace.protect,
    maxBytes: ctx.limits.readBytes,
  });
  const lines = linesOf(read.content);
  const start = Math.max(1, line - SNIPPET_LINES);
  const end = Math.min(lines.length, line + newLines - 1 + SNIPPET_LINES);
  return `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${numberedLines(lines.slice(start - 1, end), start)}\nReview the changes and make sure they are as expected. Edit the file again if necessary.\n`;
}
