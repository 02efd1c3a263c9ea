// read_file: a text file of the workspace, through the boundary check (src/agents/fs).

import * as z from "zod";
import { readFile } from "../fs/read-file.js";
import { ok, type Tool } from "./tool.js";
import { WorkspacePath } from "./workspace-path.js";

const input = z.strictObject({ path: WorkspacePath });

export const readFileTool: Tool<typeof input> = {
  name: "read_file",
  description:
    "Read a text file in your workspace and return its content. Large files are cut at a byte limit (the result says so); use search_files to find the lines you need in them.",
  input,
  async run({ path }, ctx) {
    const read = await readFile(ctx.workspace.root, path, {
      protect: ctx.workspace.protect,
      maxBytes: ctx.limits.readBytes,
    });
    if (read.content.includes("\u0000")) {
      return ok(`${read.path} is a binary file (${read.size} bytes); its content is not shown.`);
    }
    if (read.size === 0) return ok(`${read.path} is empty.`);
    const cut = read.truncated
      ? `\n[truncated: the first ${Math.min(read.size, ctx.limits.readBytes)} of ${read.size} bytes are shown; use search_files to find the rest]`
      : "";
    return ok(`${read.content}${cut}`);
  },
};
