// The verbs a person uses on a waiting job (approve, reject, answer, withdraw, intervene):
// check that the job exists and the action makes sense now, then the key (a wrong job
// number or a job that cannot take the action is the more useful answer), do it on the
// local forge, wake the job and report. Nothing is changed before every check passed.

import { resolve } from "node:path";
import { isLiveState } from "../protocol/fsm.js";
import { PHASES } from "../skills/phases.js";
import type { CliIo } from "./cli-io.js";
import { CliError } from "./cli-error.js";
import { cliName } from "./command.js";
import { readJobRecords } from "./job-records.js";
import { readJobView, type JobView } from "./job-view.js";
import { openLocalSession, stderrLogger } from "./local-session.js";
import { configureOf, modelFromEnv, noKeyMessage } from "./no-key.js";
import { noModel } from "./no-model.js";
import { personLogin } from "./person.js";
import { applyPersonAction } from "./person-action.js";
import { loadForRecording, recordInto, type Recorder } from "./recorder.js";
import type { PersonAction } from "./replay-file.js";
import { repoArg, resolveRepo } from "./resolve-repo.js";
import { wakeAndReport } from "./wake-and-report.js";
import { gitTry } from "./git-text.js";
import { localDefaultBranch } from "./wiring.js";

export interface ActRequest {
  n: number;
  repo: string | undefined;
  verbose: boolean;
  record: string | undefined;
  action: PersonAction;
  /** Throws a CliError when the job cannot take the action now (read from its records). */
  check(view: JobView, hint: (verb: string, rest?: string) => string): void;
  /**
   * A check that reads the repository (after `check`): a follow-up's request refused once the
   * job's work is merged. Throws a CliError.
   */
  checkRepo?(
    repoDir: string,
    view: JobView,
    hint: (verb: string, rest?: string) => string,
  ): Promise<void>;
  /**
   * False for withdraw: stopping a job runs no agent (seed 000 §9 cascades a Terminate), so
   * it needs no key, and its wake gets a model that refuses every call.
   */
  needsModel?: boolean;
}

export async function actOnJob(io: CliIo, request: ActRequest): Promise<number> {
  const { n } = request;
  const repoDir = await resolveRepo(io.cwd, request.repo);
  const cli = cliName(io.env);
  const suffix = repoArg(repoDir, request.repo);
  const texts = await readJobRecords(repoDir, n);
  if (texts === null) {
    throw new CliError(`there is no job #${n} in ${repoDir} (no branch cfa/${n}).`);
  }
  const view = readJobView(texts);
  const hint = (verb: string, rest = "") => `\`${cli} ${verb} ${n}${rest}${suffix}\``;
  request.check(view, hint);
  await request.checkRepo?.(repoDir, view, hint);
  const inner =
    request.needsModel === false
      ? noModel(request.action.action)
      : modelFromEnv(io, stderrLogger(io));
  if (inner === null) {
    io.stderr.write(`${noKeyMessage(cli)}\n`);
    return 1;
  }

  let recorder: Recorder | null = null;
  if (request.record !== undefined) {
    const path = resolve(io.cwd, request.record);
    const file = await loadForRecording(path);
    recorder = recordInto(path, { ...file, people: [...file.people, request.action] }, inner);
  }
  const person = await personLogin(repoDir, io.env);
  const session = await openLocalSession(io, {
    repoDir,
    model: recorder?.model ?? inner,
    person,
    verbose: request.verbose,
    env: io.env,
    configure: configureOf(inner),
    ...(io.clock ? { clock: io.clock } : {}),
  });
  try {
    const did = await applyPersonAction(
      session.forge,
      repoDir,
      { login: person, type: "User" },
      request.action,
    );
    io.stdout.write(`▶ ${did}\n`);
    return await wakeAndReport(
      io,
      session,
      n,
      { cli, repoArg: suffix, ...(suffix ? { repoDir } : {}) },
      io.signal,
    );
  } finally {
    await recorder?.save();
  }
}

/**
 * A follow-up's request on a job that ended: refused once the job's branch is merged into
 * the default branch, as on GitHub (its pull request merged): a new job is the way on.
 */
export async function requireUnmerged(
  repoDir: string,
  view: JobView,
  hint: (verb: string, rest?: string) => string,
): Promise<void> {
  const state = view.job?.state;
  if (state !== "DONE" && state !== "WITHDRAWN") return;
  const base = await localDefaultBranch(repoDir);
  const merged = await gitTry(repoDir, [
    "merge-base",
    "--is-ancestor",
    `refs/heads/cfa/${view.n}`,
    `refs/heads/${base}`,
  ]);
  if (merged === null) return;
  throw new CliError(
    `job #${view.n}'s work is merged into ${base}, so it takes no follow-up: start a new job for what you want (\`cfa run "…"\`; ${hint("inspect")} shows what was done).`,
  );
}

/** The job must be waiting on a review of its artifact. */
export function requireGate(view: JobView, hint: (verb: string, rest?: string) => string): void {
  requireLive(view, hint);
  if (view.pending.some((p) => p.kind === "gate")) return;
  throw new CliError(`job #${view.n} is not waiting on a review: ${waitingOn(view, hint)}`);
}

/**
 * A review that requests changes: the answer to a gate while one waits, or, once the job
 * ended DONE or WITHDRAWN, a request that starts a follow-up (docs/protocol.md#jobs-and-states).
 */
export function requireGateOrEnded(
  view: JobView,
  hint: (verb: string, rest?: string) => string,
): void {
  const state = view.job?.state;
  if (state === "DONE" || state === "WITHDRAWN") return;
  requireGate(view, hint);
}

/**
 * A follow-up request (`/cfa`): any started job takes one — after DONE or WITHDRAWN it starts
 * a follow-up; while the job runs, its lead reads it as an intervention. Not after FAILURE.
 */
export function requireFollowable(
  view: JobView,
  hint: (verb: string, rest?: string) => string,
): void {
  const state = view.job?.state;
  if (state === undefined) throw new CliError(`job #${view.n} has no state record yet.`);
  if (state === "FAILURE") {
    throw new CliError(
      `job #${view.n} ended in FAILURE, so it takes no follow-up: start a new job for what you want (${hint("inspect")} shows what happened).`,
    );
  }
}

export function requireLive(view: JobView, hint: (verb: string, rest?: string) => string): void {
  const state = view.job?.state;
  if (state === "INTENT" || state === "PLAN" || state === "EXECUTE") return;
  throw new CliError(
    state === undefined
      ? `job #${view.n} has no state record yet.`
      : `job #${view.n} is ${state}: it takes no more actions. ${hint("inspect")} shows what happened.`,
  );
}

/** What the job waits on, as the command that gives it, for a refusal's second half. */
export function waitingOn(view: JobView, hint: (verb: string, rest?: string) => string): string {
  const paused = view.engine?.paused;
  if (paused !== undefined) {
    return `it is paused (by @${paused.by} since ${paused.since}); ${hint("resume")} releases it.`;
  }
  const gate = view.pending.find((p) => p.kind === "gate");
  if (gate !== undefined) {
    return `it waits on your review of ${artifactName(view, gate.artifact)} (${hint("approve")} or ${hint("reject", ' --comment "…"')}).`;
  }
  const questions = view.pending.filter((p) => p.kind === "question").map((p) => p.id);
  if (questions.length > 0)
    return `it waits on your answer to ${questions.join(", ")} (${hint("answer", ' --id <id> "…"')}).`;
  if (view.runnable.length > 0) {
    return `its agents have work: ${hint("resume")} carries on (${hint("watch", " --follow")} if a command runs them already).`;
  }
  return `nobody is asked and no agent has work (${hint("intervene", ' "…"')} steers it).`;
}

/** The file name of a gate's artifact, or of its phase's when the record names none. */
export function artifactName(view: JobView, artifact: string | undefined): string {
  if (artifact !== undefined) return artifact.split("/").pop() ?? artifact;
  const state = view.job?.state;
  return isLiveState(state) ? PHASES[state].artifact : "the artifact";
}
