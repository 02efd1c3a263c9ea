// list_files: what a folder of the workspace holds (never `.git`).

import * as z from "zod";
import { MAX_TREE_DEPTH } from "../boundary/tree-limits.js";
import { listFiles } from "../fs/list-files.js";
import { ok, type Tool } from "./tool.js";

const LIST_LIMIT = 1000;

const input = z.strictObject({
  path: z
    .string()
    .default("")
    .describe("Folder relative to your workspace root; empty or omitted for the root."),
  recursive: z.boolean().default(false).describe("Also list everything below sub-folders."),
});

export const listFilesTool: Tool<typeof input> = {
  name: "list_files",
  description:
    "List the files and folders in a folder of your workspace, one per line; folders end with /. Set recursive to list the whole tree below it (up to 1000 entries).",
  input,
  async run({ path, recursive }, ctx) {
    const listed = await listFiles(ctx.workspace.root, path, {
      protect: ctx.workspace.protect,
      recursive,
      limit: LIST_LIMIT,
    });
    if (listed.entries.length === 0) return ok("(empty folder)");
    const lines = listed.entries.map((entry) => {
      switch (entry.type) {
        case "dir":
          return `${entry.path}/`;
        case "symlink":
          return `${entry.path} (symbolic link)`;
        case "file":
          return entry.path;
        case "other":
          return `${entry.path} (not a regular file)`;
        default: {
          const unreachable: never = entry.type;
          return unreachable;
        }
      }
    });
    if (listed.tooDeep > 0) {
      lines.push(
        `[${listed.tooDeep} folder(s) at the depth limit (${MAX_TREE_DEPTH} levels): their content is not listed]`,
      );
    }
    if (listed.truncated) {
      lines.push(`[truncated at ${LIST_LIMIT} entries; list a sub-folder to see more]`);
    }
    return ok(lines.join("\n"));
  },
};
