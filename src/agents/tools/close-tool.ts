// close: [send-terminate] of a finished task (docs/protocol.md#workspaces): a verifier checks it,
// and a pass merges its branch into yours.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { TaskId } from "./task-id.js";

const input = z.strictObject({ task: TaskId });

export const closeTool = hostTool({
  name: "close",
  description:
    "Close a task whose worker reported it done. A verifier checks its branch against the brief; on a pass it is merged into your branch and the task ends, on a fail the issues go back to the worker. The outcome arrives as a later message.",
  input,
  call: ({ task }, host) => host.close(task),
});
