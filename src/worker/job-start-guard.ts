// A job's branch is created only for an issue that is open, carries the label, and was
// labelled by someone who may start a job: the worker checks for itself, because it can be
// dispatched by hand, by the sweep, or by the Actions-only router, not only by the app.

import * as z from "zod";
import type { CfaConfig } from "../config/index.js";
import { livePermission } from "../github-events/live-permission.js";
import { mayAct } from "../github-events/may-act.js";
import type { GitHubRequester, RepoCoordinates } from "../github-events/github-cues.js";

export type StartGuard = { ok: true; by: string } | { ok: false; reason: string };

const IssueSchema = z.object({
  state: z.string(),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().nullish() })])),
  pull_request: z.unknown().optional(),
});

const EventSchema = z.object({
  event: z.string(),
  actor: z.object({ login: z.string(), type: z.string() }).nullish(),
  label: z.object({ name: z.string() }).nullish(),
});

export async function guardJobStart(
  github: GitHubRequester,
  at: RepoCoordinates,
  job: number,
  config: Pick<CfaConfig, "label" | "approvers" | "allowBots">,
): Promise<StartGuard> {
  const repo = { owner: at.owner, repo: at.repo };
  const { data } = await github.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
    ...repo,
    issue_number: job,
  });
  const issue = IssueSchema.parse(data);
  if (issue.pull_request !== undefined && issue.pull_request !== null) {
    return { ok: false, reason: `#${job} is a pull request, not an issue` };
  }
  if (issue.state !== "open") return { ok: false, reason: `issue #${job} is closed` };
  const labels = issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? "")));
  if (!labels.includes(config.label)) {
    return { ok: false, reason: `issue #${job} does not carry the \`${config.label}\` label` };
  }
  const events = z.array(EventSchema).parse(
    await github.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/events", {
      ...repo,
      issue_number: job,
      per_page: 100,
    }),
  );
  const labelled = events
    .filter((e) => e.event === "labeled" && e.label?.name === config.label)
    .at(-1)?.actor;
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
  const permission = await livePermission(github, at, who);
  if (!mayAct(who, permission, config.approvers)) {
    return {
      ok: false,
      reason: `@${who}, who added \`${config.label}\`, has ${permission} access`,
    };
  }
  return { ok: true, by: who };
}
