// dispatch: sparks a task ([spark], docs/protocol.md#dispatch): a worker on its own worktree and
// branch, made from the dispatcher's branch; past the fan-out cap it waits ([send-block]).

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedList, boundedText, TEXT_LIMITS } from "./text-limits.js";
import { TaskId } from "./task-id.js";

const input = z.strictObject({
  id: TaskId,
  brief: boundedText(TEXT_LIMITS.brief, "a brief").describe(
    "Everything the worker needs: the goal, the files, how to check the work, what not to touch.",
  ),
  files: boundedList(z.string().min(1).max(4096), TEXT_LIMITS.dispatchFiles, "files")
    .default([])
    .describe("Files from your workspace copied into the worker's (root-relative paths)."),
});

export const dispatchTool = hostTool({
  name: "dispatch",
  description:
    "Start a new task: a worker gets its own branch, made from yours, and the brief as its first message. The worker replies to you when done; its reply arrives as a later message. When too many of your tasks are open the new one is queued and starts once you close one.",
  input,
  call: ({ id, brief, files }, host) => host.dispatch({ id, brief, files }),
});
