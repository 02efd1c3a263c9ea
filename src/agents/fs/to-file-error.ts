// Maps an errno from open/mkdir/rename to the error the agent should see. ELOOP under
// O_NOFOLLOW means a link sits where the boundary check saw none: a swap, so a refusal.

import { BoundaryError } from "../boundary/boundary-error.js";
import { FileToolError } from "./file-tool-error.js";

export function toFileError(error: unknown, requested: string): Error {
  if (error instanceof BoundaryError || error instanceof FileToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return new FileToolError("not-found", requested, "no such file or directory", {
        cause: error,
      });
    case "ELOOP":
      return new BoundaryError(
        requested,
        "changed",
        "a symbolic link appeared on the path after the boundary check; try again",
        { cause: error },
      );
    case "EISDIR":
      return new FileToolError("is-a-directory", requested, "it is a directory, not a file", {
        cause: error,
      });
    case "ENOTDIR":
      return new FileToolError("not-a-directory", requested, "a parent on the path is a file", {
        cause: error,
      });
    default:
      return new FileToolError(
        "io",
        requested,
        `${code ?? "unexpected error"}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
  }
}
