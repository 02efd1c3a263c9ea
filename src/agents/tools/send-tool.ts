// send: a message along a dispatch edge (docs/protocol.md#dispatch: only to what this instance can
// see — the tasks it dispatched, or its parent). The host checks the visibility.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { TaskId } from "./task-id.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  to: z
    .string()
    .refine((to) => to === "parent" || TaskId.safeParse(to).success, {
      message: 'must be "parent" or the id of a task you dispatched',
    })
    .describe('The id of a task you dispatched, or "parent" for the one who dispatched you.'),
  text: boundedText(TEXT_LIMITS.message, "a message").describe("The message."),
});

export const sendTool = hostTool({
  name: "send",
  description:
    'Send a message to a task you dispatched (by its id) or to "parent". It is delivered after your turn ends; any reply arrives as a later message.',
  input,
  call: ({ to, text }, host) => host.send(to === "parent" ? { parent: true } : { task: to }, text),
});
