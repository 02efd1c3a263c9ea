// A task id becomes a branch (`cfa/<N>-<task>`) and a folder name, so it is kept to a
// charset that is safe for both on every filesystem (lower case: no case-folding clashes).

import * as z from "zod";

export const TaskId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,39}$/,
    "must be 1-40 lower-case letters, digits or hyphens, starting with a letter or digit",
  )
  // "parent" names the dispatcher in send (a task sees its parent: docs/protocol.md#dispatch).
  .refine((id) => id !== "parent", '"parent" is reserved for the dispatcher; choose another id')
  .describe('A short task id, e.g. "t1" or "parser-tests".');
