// What the person does on the local forge, as the GitHub App would see it done on GitHub:
// a review of the job's pull request at the head of `cfa/<N>` (approving the latest commit,
// as a person on GitHub does), or an issue comment carrying a command. The engine reads it
// back at the next wake (an event is a cue to re-read).

import type { LocalForge } from "../adapters/local/local-forge.js";
import { looseBranchIdAt } from "../git/head-from-files.js";
import { jobPaths } from "../records/job-paths.js";
import type { Actor, ReviewComment } from "../ports/forge.js";
import { jobRoundsAt } from "../git/job-rounds.js";
import { diffHunkAt } from "./diff-hunk.js";
import { countOf } from "./count-of.js";
import { oneLine } from "./live-log.js";
import { isLiveState } from "../protocol/fsm.js";
import { PHASES } from "../skills/phases.js";
import { CliError } from "./cli-error.js";
import { describeAction } from "./describe-action.js";
import { gitText, gitTry } from "./git-text.js";
import type { PersonAction } from "./replay-file.js";

/** Does `action` as `person`; returns what was done, in words, for the log. */
export async function applyPersonAction(
  forge: LocalForge,
  repoDir: string,
  person: Actor,
  action: PersonAction,
): Promise<string> {
  const n = action.job;
  const text = action.text?.trim() ?? "";
  const said = (artifact?: string) =>
    describeAction(person.login, action.action, n, action.text, artifact);
  switch (action.action) {
    case "approve":
    case "reject": {
      const branch = jobPaths(n).branch;
      const pr = await forge.findPullRequest(branch);
      if (pr === null) {
        throw new CliError(`job #${n} has no pull request yet, so there is nothing to review.`);
      }
      // The branch's loose ref is read without git (head-from-files.ts); else git is asked.
      const head =
        (await looseBranchIdAt(repoDir, `refs/heads/${branch}`)) ??
        (await gitText(repoDir, ["rev-parse", `refs/heads/${branch}`])).trim();
      const comments = await inlineComments(repoDir, pr.base, head, action.inline ?? []);
      await forge.submitReview({
        pr: pr.number,
        author: person,
        state: action.action === "approve" ? "APPROVED" : "CHANGES_REQUESTED",
        body: text,
        commitId: head,
        ...(comments.length > 0 ? { comments } : {}),
      });
      // A gate reviews the artifact of the phase the job is in; after the job ended, the
      // review asks for a follow-up.
      const state = await stateAt(repoDir, `${head}:${await statePath(repoDir, n, head)}`);
      const inline = comments.length > 0 ? ` (${countOf(comments.length, "inline comment")})` : "";
      if (action.action === "reject" && (state === "DONE" || state === "WITHDRAWN")) {
        // docs/protocol.md#jobs-and-states: the review asks for a follow-up.
        const words = text === "" ? "" : `: ${JSON.stringify(oneLine(text, 120))}`;
        return `@${person.login} requests changes on job #${n}'s pull request, which is ${state}: a follow-up starts${words}${inline}`;
      }
      return `${said(isLiveState(state) ? PHASES[state].artifact : undefined)}${inline}`;
    }
    case "answer":
      await forge.commentAs(person, n, `/answer ${action.id ? `${action.id} ` : ""}${text}`);
      return said();
    case "withdraw":
      await forge.commentAs(person, n, `/withdraw${text ? ` ${text}` : ""}`);
      return said();
    case "intervene":
      await forge.commentAs(person, n, `/intervene ${text}`);
      return said();
    case "pause":
      await forge.commentAs(person, n, `/pause${text ? ` ${text}` : ""}`);
      return said();
    case "followup":
      // docs/protocol.md#jobs-and-states: after the job ended it starts a follow-up; while
      // one runs, its lead reads it as an intervention.
      await forge.commentAs(person, n, `/cfa ${text}`);
      return said();
    case "resume": {
      // A paused job is released by a `/resume`.
      const ref = `refs/heads/${jobPaths(n).branch}`;
      const object = `${ref}:${await statePath(repoDir, n, ref)}`;
      if (await isPaused(repoDir, object)) await forge.commentAs(person, n, "/resume");
      // A job waiting on a failed setup is tried again on `cfa resume`, as
      // `/retry` does on GitHub; otherwise the wake that follows is the point.
      if (await waitsOnSetup(repoDir, object)) {
        await forge.commentAs(person, n, "/retry");
      }
      return said();
    }
    default: {
      const never: never = action.action;
      throw new CliError(`unknown action ${String(never)}`);
    }
  }
}

/** The state.json of job `n`'s newest round at `treeish` (a follow-up's once one began). */
async function statePath(repoDir: string, n: number, treeish: string): Promise<string> {
  const rounds = await jobRoundsAt((args) => gitTry(repoDir, args), treeish, n);
  return jobPaths(n, rounds.at(-1) ?? 1).state;
}

/**
 * A review's inline comments as GitHub records them, each with the diff hunk it sits on; a
 * line the pull request's diff does not show is refused, as GitHub refuses it.
 */
async function inlineComments(
  repoDir: string,
  base: string,
  head: string,
  inline: NonNullable<PersonAction["inline"]>,
): Promise<ReviewComment[]> {
  const out: ReviewComment[] = [];
  for (const c of inline) {
    const diffHunk = await diffHunkAt(repoDir, base, head, c.path, c.line);
    if (diffHunk === null) {
      throw new CliError(
        `line ${c.line} of ${c.path} is not in the pull request's diff: a review comment goes on a line the work changed or shows around a change.`,
      );
    }
    out.push({ path: c.path, line: c.line, body: c.text, diffHunk });
  }
  return out;
}

/** Whether the job's record (at `object`) says it waits on a failed setup. */
async function waitsOnSetup(repoDir: string, object: string): Promise<boolean> {
  return (await engineAt(repoDir, object))?.setup?.failed !== undefined;
}

/** Whether the job's record (at `object`) says it is paused. */
async function isPaused(repoDir: string, object: string): Promise<boolean> {
  return (await engineAt(repoDir, object))?.paused !== undefined;
}

async function engineAt(
  repoDir: string,
  object: string,
): Promise<{ setup?: { failed?: unknown }; paused?: unknown } | undefined> {
  try {
    const record = JSON.parse((await gitTry(repoDir, ["show", object])) ?? "{}") as {
      engine?: { setup?: { failed?: unknown }; paused?: unknown };
    };
    return record.engine;
  } catch {
    return undefined;
  }
}

/** The state the job's record (at `object`) is in, if it can be read. */
async function stateAt(repoDir: string, object: string): Promise<unknown> {
  try {
    return (JSON.parse((await gitTry(repoDir, ["show", object])) ?? "{}") as { state?: unknown })
      .state;
  } catch {
    return undefined;
  }
}
