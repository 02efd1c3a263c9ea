// verdict: the verifier's judgement of one task; the engine merges on pass and returns the
// issues to the worker on fail.

import * as z from "zod";
import { hostTool } from "./host-tool.js";
import { boundedList, boundedText, TEXT_LIMITS } from "./text-limits.js";

const input = z
  .strictObject({
    verdict: z.enum(["pass", "fail"]).describe("pass when the work does what the brief asks."),
    issues: boundedList(
      boundedText(TEXT_LIMITS.verdictIssue, "an issue"),
      TEXT_LIMITS.verdictIssues,
      "issues",
    )
      .default([])
      .describe("For fail: each problem, stated so the worker can fix it."),
    notes: boundedText(TEXT_LIMITS.verdictNotes, "notes", { allowEmpty: true })
      .default("")
      .describe("What you checked and how."),
  })
  .refine((value) => value.verdict === "pass" || value.issues.length > 0, {
    path: ["issues"],
    message: "a fail verdict needs at least one issue",
  });

export const verdictTool = hostTool({
  name: "verdict",
  description:
    "Give your verdict on the task: pass, or fail with each issue. Give it once, after checking; then stop. On pass the task's branch is merged; on fail the issues go to the worker.",
  input,
  endsTurn: true,
  call: ({ verdict, issues, notes }, host) => host.verdict({ verdict, issues, notes }),
});
