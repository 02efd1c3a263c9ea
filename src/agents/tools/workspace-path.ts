// The one way a file tool's input names a path, so every tool describes it the same way.

import * as z from "zod";

export const WorkspacePath = z
  .string()
  .min(1)
  .describe("Path relative to your workspace root, with / separators (e.g. src/index.ts).");
