// withdraw: the proxy's answer `[WITHDRAW]\n<reason>` (docs/protocol.md#escalation): the asking
// skill then writes its own withdraw outcome.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z.strictObject({
  reason: boundedText(TEXT_LIMITS.reason, "a reason").describe(
    "The person's reason, in their words where possible.",
  ),
});

export const withdrawTool = hostTool({
  name: "withdraw",
  description:
    "Answer that the person abandons the job, with their reason. Use it only when the person has made that clear. The asking agent then ends the job; then stop.",
  input,
  endsTurn: true,
  call: ({ reason }, host) => host.proxyWithdraw(reason),
});
