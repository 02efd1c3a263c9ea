// What the person did, as one line of the log ("▶ @ana approves …").

import { oneLine } from "./live-log.js";
import type { PersonAction } from "./replay-file.js";

/** "@ana approves INTENT.md of job #1": what the person did, for the log. */
export function describeAction(
  person: string,
  action: PersonAction["action"],
  job: number,
  text: string | undefined,
  /** The artifact under review, for approve and reject. */
  artifact = "the artifact under review",
): string {
  const said = text?.trim() ? `: ${JSON.stringify(oneLine(text, 120))}` : "";
  switch (action) {
    case "approve":
      return `@${person} approves ${artifact} of job #${job}${said}`;
    case "reject":
      return `@${person} requests changes to ${artifact} of job #${job}${said}`;
    case "answer":
      return `@${person} answers job #${job}${said}`;
    case "withdraw":
      return `@${person} withdraws job #${job}${said}`;
    case "intervene":
      return `@${person} intervenes in job #${job}${said}`;
    case "resume":
      return `@${person} resumes job #${job}`;
    case "pause":
      return `@${person} pauses job #${job}${said}`;
    case "followup":
      return `@${person} asks for more work on job #${job} (/cfa)${said}`;
    default: {
      const never: never = action;
      return `@${person}: ${String(never)} job #${job}`;
    }
  }
}
