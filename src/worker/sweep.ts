// Sweep mode (the workflow's schedule): find every job that needs a worker and dispatch one
// for it, so a lost delivery, a cancelled run or a crash only delays a job (an event
// is a cue). Jobs are read from GitHub: the job branches and their state.json,
// the issues, and the newest comment and review ids.

import * as z from "zod";
import { configFromText } from "../github-events/config-from-text.js";
import { createGitHubCues } from "../github-events/github-cues.js";
import { runTitle } from "../github-events/run-title.js";
import type { CfaConfig } from "../config/index.js";
import { engineState } from "../records/engine-state.js";
import { JOBS_DIR, jobPaths, parseRoundDir } from "../records/job-paths.js";
import { isLiveState } from "../protocol/fsm.js";
import { parseJobRecord } from "../protocol/job-record.js";
import { livePermission } from "../github-events/live-permission.js";
import { mayAct } from "../github-events/may-act.js";
import { refusedByBlocks } from "../comments/outsider-refusal-comment.js";
import { readHiddenBlock } from "../comments/hidden-block.js";
import { guardJobStart, readStartFacts } from "./job-start-guard.js";
import { jobNeedsWake } from "./job-needs-wake.js";
import { ownWorkflow } from "./own-workflow.js";
import { workerForge } from "./worker-forge.js";
import type { WorkerContext } from "./worker-context.js";
import { systemClock } from "../ports/clock.js";

export interface SweepResult {
  exitCode: number;
  /** Jobs dispatched (or, in a dry run, that would be), with why. */
  woken: { job: number; reasons: string[] }[];
  errors: string[];
}

const RefSchema = z.array(z.object({ ref: z.string() }));
const IssueSchema = z.object({
  number: z.number(),
  state: z.enum(["open", "closed"]),
  labels: z.array(z.union([z.string(), z.object({ name: z.string().nullish() })])),
  pull_request: z.unknown().optional(),
});
const AuthoredSchema = z.array(
  z.object({
    id: z.number(),
    user: z.object({ login: z.string(), type: z.string() }).nullish(),
    body: z.string().nullish(),
  }),
);
const ContentSchema = z.object({ content: z.string(), encoding: z.literal("base64") });
const PullSchema = z.object({ state: z.enum(["open", "closed"]) });
const RunsSchema = z.object({
  workflow_runs: z.array(z.object({ display_title: z.string().nullish() })),
});

export async function sweep(w: WorkerContext, options: { dryRun: boolean }): Promise<SweepResult> {
  const { env, github, logger } = w;
  const repo = { owner: env.owner, repo: env.repo };
  const forge = workerForge(w);
  const loaded = configFromText(await forge.readConfig());
  if (!loaded.ok) {
    const errors = loaded.errors.map((e) => e.message);
    logger.error(`cfa/worker: .github/cfa.yml is not valid; no job is swept: ${errors.join("; ")}`);
    return { exitCode: 1, woken: [], errors };
  }
  const config = loaded.config;
  const workflow = ownWorkflow(env.GITHUB_WORKFLOW_REF) ?? config.workflow;

  const refs = RefSchema.parse(
    (
      await github.request("GET /repos/{owner}/{repo}/git/matching-refs/{ref}", {
        ...repo,
        ref: "heads/cfa/",
      })
    ).data,
  );
  const started = refs
    .map((r) => /^refs\/heads\/cfa\/([1-9][0-9]*)$/.exec(r.ref)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const labelled = z
    .array(IssueSchema)
    .parse(
      await github.paginate("GET /repos/{owner}/{repo}/issues", {
        ...repo,
        labels: config.label,
        state: "open",
        per_page: 100,
      }),
    )
    .filter((i) => i.pull_request === undefined || i.pull_request === null);
  const active = await activeJobs(w, workflow);

  const woken: SweepResult["woken"] = [];
  const errors: string[] = [];
  const consider = async (job: number, find: () => Promise<string[]>) => {
    if (active.has(job)) return;
    try {
      const reasons = await find();
      if (reasons.length > 0) woken.push({ job, reasons });
    } catch (error) {
      errors.push(
        `job #${job}: ${w.redact(error instanceof Error ? error.message : String(error))}`,
      );
    }
  };
  for (const job of started) {
    await consider(job, () => startedJobReasons(w, config, job, labelled));
  }
  for (const issue of labelled) {
    if (started.includes(issue.number)) continue;
    // A start whose delivery was lost: only if the label came from someone allowed.
    await consider(issue.number, async () => {
      const guard = await guardJobStart(
        await readStartFacts(github, repo, issue.number),
        issue.number,
        config,
        (login) => livePermission(github, repo, login),
      );
      return guard.ok ? [`labelled by @${guard.by} but never started`] : [];
    });
  }

  const cues = createGitHubCues(github, repo);
  const ref = await forge.defaultBranch();
  for (const { job, reasons } of woken) {
    const why = reasons.join("; ");
    if (options.dryRun) {
      logger.info(`cfa/worker: would wake job #${job}: ${why}`);
      continue;
    }
    try {
      await cues.dispatch(workflow, ref, job);
      logger.info(`cfa/worker: woke job #${job}: ${why}`);
    } catch (error) {
      errors.push(
        `job #${job}: dispatch failed: ${w.redact(error instanceof Error ? error.message : String(error))}`,
      );
    }
  }
  for (const error of errors) logger.error(`cfa/worker: sweep: ${error}`);
  await w.summary(
    `### cfa sweep\n\n${woken.length === 0 ? "No job needed a worker." : woken.map((x) => `- #${x.job}: ${x.reasons.join("; ")}`).join("\n")}\n`,
  );
  // One job that cannot be read must not stop the others; the run still goes red for it.
  return { exitCode: errors.length > 0 ? 1 : 0, woken, errors };
}

/**
 * The newest round of `job` on its branch: its `.cfa/jobs/` folder names, one listing (for a
 * directory the contents API answers "an array of objects, one object for each item in the
 * directory": https://docs.github.com/en/rest/repos/contents#get-repository-content).
 */
async function newestRound(w: WorkerContext, job: number): Promise<number> {
  const { data } = await w.github.request("GET /repos/{owner}/{repo}/contents/{path}", {
    owner: w.env.owner,
    repo: w.env.repo,
    path: JOBS_DIR,
    ref: jobPaths(job).branch,
  });
  const names = z.array(z.object({ name: z.string(), type: z.string() })).parse(data);
  return Math.max(
    1,
    ...names.flatMap((entry) => {
      const at = entry.type === "dir" ? parseRoundDir(entry.name) : null;
      return at !== null && at.job === job ? [at.round] : [];
    }),
  );
}

async function startedJobReasons(
  w: WorkerContext,
  config: CfaConfig,
  job: number,
  labelled: z.infer<typeof IssueSchema>[],
): Promise<string[]> {
  const { github, env } = w;
  const repo = { owner: env.owner, repo: env.repo };
  const read = async (round: number) => {
    const paths = jobPaths(job, round);
    const { data } = await github.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...repo,
      path: paths.state,
      ref: paths.branch,
    });
    const text = Buffer.from(ContentSchema.parse(data).content, "base64").toString("utf8");
    return parseJobRecord(text, paths.state);
  };
  let record: ReturnType<typeof parseJobRecord>;
  try {
    record = await read(1);
  } catch (error) {
    // A branch without a record yet: the start's first push has not landed.
    if ((error as { status?: unknown }).status === 404) return [];
    throw error;
  }
  // An ended job may have been followed up (records/job-paths.ts): the newest round is the job.
  if (record.state === "DONE" || record.state === "WITHDRAWN") {
    const newest = await newestRound(w, job);
    if (newest > 1) record = await read(newest);
  }
  if (!isLiveState(record.state)) return [];
  const engine = engineState(record);
  let issue = labelled.find((i) => i.number === job);
  if (issue === undefined) {
    const { data } = await github.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
      ...repo,
      issue_number: job,
    });
    issue = IssueSchema.parse(data);
  }
  const person = (user: { login: string; type: string } | null | undefined) =>
    user !== null &&
    user !== undefined &&
    (user.type !== "Bot" ||
      config.allowBots.some((b) => b.toLowerCase() === user.login.toLowerCase()));
  const comments = AuthoredSchema.parse(
    await github.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      ...repo,
      issue_number: job,
      per_page: 100,
    }),
  );
  // What the app already answered (an outsider's command or review) needs no
  // wake: the job would only read past it (skip-refused.ts). Trusted as the worker trusts
  // it, when the author's live permission agrees.
  const refused = refusedByBlocks(
    comments.filter((c) => c.user?.type === "Bot").map((c) => readHiddenBlock(c.body ?? "")),
    job,
  );
  const outsiders = new Map<string, Promise<boolean>>();
  const isOutsider = (login: string) => {
    let known = outsiders.get(login.toLowerCase());
    if (known === undefined) {
      known = livePermission(github, repo, login).then(
        (permission) => !mayAct(login, permission, config.approvers),
      );
      outsiders.set(login.toLowerCase(), known);
    }
    return known;
  };
  const newest = async (items: z.infer<typeof AuthoredSchema>, answered: Set<number>) => {
    let latest = 0;
    for (const item of items) {
      if (!person(item.user) || item.id <= latest) continue;
      if (answered.has(item.id) && (await isOutsider(item.user!.login))) continue;
      latest = item.id;
    }
    return latest;
  };
  const pullRequest =
    engine.pr === null
      ? null
      : PullSchema.parse(
          (
            await github.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
              ...repo,
              pull_number: engine.pr,
            })
          ).data,
        );
  const reviews =
    engine.pr === null
      ? []
      : AuthoredSchema.parse(
          await github.paginate("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
            ...repo,
            pull_number: engine.pr,
            per_page: 100,
          }),
        );
  return jobNeedsWake({
    state: record.state,
    engine,
    issue: {
      state: issue.state,
      labels: issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))),
    },
    label: config.label,
    latestComment: await newest(comments, refused.comments),
    latestReview: await newest(reviews, refused.reviews),
    pullRequest,
    gates: config.gates,
    now: (w.clock ?? systemClock).now(),
  });
}

/** Jobs a worker run is already working on or queued for (in progress or queued). */
async function activeJobs(w: WorkerContext, workflow: string): Promise<Set<number>> {
  const jobs = new Set<number>();
  for (const status of ["in_progress", "queued"]) {
    const { data } = await w.github.request(
      "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      { owner: w.env.owner, repo: w.env.repo, workflow_id: workflow, status, per_page: 100 },
    );
    for (const run of RunsSchema.parse(data).workflow_runs) {
      const match = /^cfa job #([1-9][0-9]*)$/.exec(run.display_title ?? "");
      if (match?.[1] !== undefined && runTitle(Number(match[1])) === run.display_title) {
        jobs.add(Number(match[1]));
      }
    }
  }
  return jobs;
}
