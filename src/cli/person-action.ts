// What the person does on the local forge, as the GitHub App would see it done on GitHub:
// a review of the job's pull request at the head of `cfa/<N>` (approving the latest commit,
// as a person on GitHub does), or an issue comment carrying a command. The engine reads it
// back at the next wake (DESIGN.md "events are cues").

import type { LocalForge } from "../adapters/local/local-forge.js";
import { jobPaths } from "../engine/job-paths.js";
import type { Actor } from "../ports/forge.js";
import { CliError } from "./cli-error.js";
import { gitText } from "./git-text.js";
import type { PersonAction } from "./replay-file.js";

export async function applyPersonAction(
  forge: LocalForge,
  repoDir: string,
  person: Actor,
  action: PersonAction,
): Promise<void> {
  const n = action.job;
  const text = action.text?.trim() ?? "";
  switch (action.action) {
    case "approve":
    case "reject": {
      const branch = jobPaths(n).branch;
      const pr = await forge.findPullRequest(branch);
      if (pr === null) {
        throw new CliError(`job #${n} has no pull request yet, so there is nothing to review.`);
      }
      const head = (await gitText(repoDir, ["rev-parse", `refs/heads/${branch}`])).trim();
      await forge.submitReview({
        pr: pr.number,
        author: person,
        state: action.action === "approve" ? "APPROVED" : "CHANGES_REQUESTED",
        body: text,
        commitId: head,
      });
      return;
    }
    case "answer":
      await forge.commentAs(person, n, `/answer ${action.id ? `${action.id} ` : ""}${text}`);
      return;
    case "withdraw":
      await forge.commentAs(person, n, `/withdraw${text ? ` ${text}` : ""}`);
      return;
    case "intervene":
      await forge.commentAs(person, n, `/intervene ${text}`);
      return;
    case "resume":
      return; // nothing to say: the wake that follows is the point
    default: {
      const never: never = action.action;
      throw new CliError(`unknown action ${String(never)}`);
    }
  }
}
