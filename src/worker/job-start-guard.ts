// A job's branch is created only for an issue that is open, carries the label, and was
// labelled by someone who may start a job: the worker checks for itself, because it can be
// dispatched by hand, by the sweep, or by the Actions-only router, not only by the app.
// The one who labelled it is the job's requester: the person whose review
// counts at the gates and whose proxy answers for them, not the issue's author (who may be
// an outsider whose review GitHub would not even let us request).

import * as z from "zod";
import type { CfaConfig } from "../config/index.js";
import { mayAct } from "../github-events/may-act.js";
import type { GitHubRequester, RepoCoordinates } from "../github-events/github-cues.js";
import type { LabelEvent, Permission } from "../ports/forge.js";

export type StartGuard = { ok: true; by: string } | { ok: false; reason: string };

/** What the guard decides on: the issue as it is now, and who added which label, oldest first. */
export interface StartFacts {
  issue: { state: "open" | "closed"; labels: string[]; isPullRequest?: boolean | undefined };
  labelEvents: readonly LabelEvent[];
}

export async function guardJobStart(
  facts: StartFacts,
  job: number,
  config: Pick<CfaConfig, "label" | "approvers" | "allowBots">,
  permissionOf: (login: string) => Promise<Permission>,
): Promise<StartGuard> {
  const { issue } = facts;
  if (issue.isPullRequest === true) {
    return { ok: false, reason: `#${job} is a pull request, not an issue` };
  }
  if (issue.state !== "open") return { ok: false, reason: `issue #${job} is closed` };
  if (!issue.labels.includes(config.label)) {
    return { ok: false, reason: `issue #${job} does not carry the \`${config.label}\` label` };
  }
  const labelled = facts.labelEvents.filter((e) => e.label === config.label).at(-1)?.actor;
  if (!labelled) {
    return { ok: false, reason: `issue #${job} has no record of who added \`${config.label}\`` };
  }
  const who = labelled.login;
  if (
    labelled.type === "Bot" &&
    !config.allowBots.some((b) => b.toLowerCase() === who.toLowerCase())
  ) {
    return {
      ok: false,
      reason: `\`${config.label}\` was added by a bot (@${who}) not in allowBots`,
    };
  }
  const permission = await permissionOf(who);
  if (!mayAct(who, permission, config.approvers)) {
    return {
      ok: false,
      reason: `@${who}, who added \`${config.label}\`, has ${permission} access`,
    };
  }
  return { ok: true, by: who };
}

const IssueSchema = z.object({
  state: z.enum(["open", "closed"]),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().nullish() })])),
  pull_request: z.unknown().optional(),
});

const EventSchema = z.object({
  event: z.string(),
  actor: z.object({ login: z.string(), type: z.string() }).nullish(),
  label: z.object({ name: z.string() }).nullish(),
});

/** The guard's facts over REST (the sweep, which reads many issues and no job view). */
export async function readStartFacts(
  github: GitHubRequester,
  at: RepoCoordinates,
  job: number,
): Promise<StartFacts> {
  const repo = { owner: at.owner, repo: at.repo };
  const { data } = await github.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
    ...repo,
    issue_number: job,
  });
  const issue = IssueSchema.parse(data);
  const events = z.array(EventSchema).parse(
    await github.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/events", {
      ...repo,
      issue_number: job,
      per_page: 100,
    }),
  );
  return {
    issue: {
      state: issue.state,
      labels: issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))),
      isPullRequest: issue.pull_request !== undefined && issue.pull_request !== null,
    },
    labelEvents: events.flatMap((e) =>
      e.event === "labeled" && e.label && e.actor
        ? [
            {
              label: e.label.name,
              actor: {
                login: e.actor.login,
                type: e.actor.type === "Bot" ? ("Bot" as const) : ("User" as const),
              },
            },
          ]
        : [],
    ),
  };
}
