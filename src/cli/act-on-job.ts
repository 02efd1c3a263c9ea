// The verbs a person uses on a waiting job (approve, reject, answer, withdraw, intervene):
// check that the job exists and the action makes sense now, then the key (a wrong job
// number or a job that cannot take the action is the more useful answer), do it on the
// local forge, wake the job and report. Nothing is changed before every check passed.

import { CURRENT_TOOL_SET } from "../records/tool-sets.js";
import { resolve } from "node:path";
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
  /**
   * Throws a CliError when the job cannot take the action now (read from its records);
   * returns a line when what the action asks for is so already (nothing done, exit 0).
   */
  check(view: JobView, hint: (verb: string, rest?: string) => string): string | void;
  /**
   * The action asks for more work (docs/protocol.md#jobs-and-states): once the job ended it
   * starts a follow-up, which a job whose work is merged takes no more (requireUnmerged).
   */
  followUp?: boolean;
  /**
   * False for withdraw: stopping a job runs no agent (docs/protocol.md#withdrawal), so it
   * needs no key, and its wake gets a model that refuses every call.
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
  const already = request.check(view, hint);
  if (typeof already === "string") {
    io.stdout.write(`${already}\n`);
    return 0;
  }
  if (request.followUp === true) await requireUnmerged(repoDir, view, hint);
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
    // A job keeps the tools it started with (its state says which); this names a new job's.
    toolSet: io.toolSet ?? CURRENT_TOOL_SET,
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
async function requireUnmerged(
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
