// reply: a task's message to whoever dispatched it (send to "parent").

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  text: boundedText(TEXT_LIMITS.message, "a reply").describe(
    "What you did, how you checked it, and anything left open.",
  ),
});

export const replyTool = hostTool({
  name: "reply",
  description:
    "Send a message to whoever dispatched your task (your lead, or the task above yours): report the work done (or what blocks you). It is delivered after your turn ends; their answer, if any, arrives as a later message.",
  input,
  call: ({ text }, host) => host.send({ parent: true }, text),
});
