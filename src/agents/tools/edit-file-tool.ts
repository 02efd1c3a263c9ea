// edit_file: one exact, unique replacement in a file, inside the boundary.

import * as z from "zod";
import { editFile } from "../fs/edit-file.js";
import { ok, type Tool } from "./tool.js";
import { refuseIfReadOnly } from "./writable.js";
import { WorkspacePath } from "./workspace-path.js";

const input = z.strictObject({
  path: WorkspacePath,
  old_text: z
    .string()
    .min(1)
    .describe(
      "The exact text to replace, copied from the file (whitespace included). It must occur exactly once.",
    ),
  new_text: z.string().describe("The text that takes its place (empty to delete it)."),
});

export const editFileTool: Tool<typeof input> = {
  name: "edit_file",
  description:
    "Replace one exact piece of text in an existing file of your workspace. old_text must occur exactly once in the file; if it occurs more than once, include more surrounding lines. Read the file first so the text matches exactly.",
  input,
  async run({ path, old_text, new_text }, ctx) {
    const refused = refuseIfReadOnly(ctx);
    if (refused) return refused;
    const edited = await editFile(ctx.workspace.root, path, old_text, new_text, {
      protect: ctx.workspace.protect,
    });
    return ok(`Edited ${edited.path} at line ${edited.line}.`);
  },
};
