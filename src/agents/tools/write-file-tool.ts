// write_file: creates or replaces a whole file, atomically, inside the boundary.

import * as z from "zod";
import { removeShapedFoldersAround } from "../../git/remove-shaped-folders.js";
import { shapedFolderNote } from "../../git/repository-shape.js";
import { writeFile } from "../fs/write-file.js";
import { ok, type Tool } from "./tool.js";
import { refuseIfReadOnly } from "./writable.js";
import { WorkspacePath } from "./workspace-path.js";

const input = z.strictObject({
  path: WorkspacePath,
  content: z.string().describe("The complete new content of the file."),
});

export const writeFileTool: Tool<typeof input> = {
  name: "write_file",
  description:
    "Create a file, or replace a file's whole content, in your workspace. Missing folders are created. To change part of an existing file, use edit_file instead.",
  input,
  async run({ path, content }, ctx) {
    const refused = refuseIfReadOnly(ctx);
    if (refused) return refused;
    const written = await writeFile(ctx.workspace.root, path, content, {
      protect: ctx.workspace.protect,
    });
    // A folder this write made shaped like a bare repository is removed (repository-shape.ts).
    const removed = await removeShapedFoldersAround(ctx.workspace.root, written.path);
    const note = removed.map((folder) => ` ${shapedFolderNote(folder)}`).join("");
    return ok(
      `${written.created ? "Created" : "Replaced"} ${written.path} (${written.bytes} bytes).${note}`,
    );
  },
};
