// What a child needs from its parent is copied into its workspace by name when it starts
// (docs/protocol.md#workspaces). Each file passes the boundary check on both sides; a missing one
// is an error.

import { BoundaryError } from "../../agents/boundary/boundary-error.js";
import { FileToolError } from "../../agents/fs/file-tool-error.js";
import { readFileBytes } from "../../agents/fs/read-file.js";
import { writeFile } from "../../agents/fs/write-file.js";
import type { Workspace } from "../../ports/workspaces.js";
import { WorkspaceError } from "./workspace-error.js";

// Files shared at spark are artifacts (plans, notes), not build outputs.
export const MAX_COPY_BYTES = 64 * 1024 * 1024;

/** Copies `files` from `from` into the work tree at `toRoot`; returns their child-relative paths. */
export async function copyFiles(
  from: Workspace,
  toRoot: string,
  files: readonly string[],
): Promise<string[]> {
  const copied: string[] = [];
  for (const file of files) {
    try {
      const read = await readFileBytes(from.root, file, { maxBytes: MAX_COPY_BYTES });
      if (read.truncated) {
        throw new WorkspaceError(
          "create",
          `cannot copy ${JSON.stringify(file)}: it is over ${MAX_COPY_BYTES} bytes`,
        );
      }
      copied.push((await writeFile(toRoot, file, read.bytes)).path);
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      const why =
        error instanceof FileToolError && error.code === "not-found"
          ? "it does not exist in the parent's workspace"
          : error instanceof BoundaryError || error instanceof FileToolError
            ? error.message
            : String(error);
      throw new WorkspaceError(
        "create",
        `cannot copy ${JSON.stringify(file)} from ${from.root}: ${why}`,
        { cause: error },
      );
    }
  }
  return copied;
}
