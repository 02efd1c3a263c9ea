// The verbs a person uses on a waiting job (approve, reject, answer, withdraw, intervene):
// check the key, then that the job exists and the action makes sense now, do it on the
// local forge, wake the job and report. Nothing is changed before every check passed.

import { resolve } from "node:path";
import type { CliIo } from "./cli-io.js";
import { CliError } from "./cli-error.js";
import { cliName } from "./command.js";
import { readJobRecords } from "./job-records.js";
import { readJobView, type JobView } from "./job-view.js";
import { openLocalSession, stderrLogger } from "./local-session.js";
import { configureOf, modelFromEnv, NO_KEY_MESSAGE } from "./no-key.js";
import { personLogin } from "./person.js";
import { applyPersonAction } from "./person-action.js";
import { loadForRecording, recordInto, type Recorder } from "./recorder.js";
import type { PersonAction } from "./replay-file.js";
import { repoArg, resolveRepo } from "./resolve-repo.js";
import { wakeAndReport } from "./wake-and-report.js";

export interface ActRequest {
  n: number;
  repo: string | undefined;
  verbose: boolean;
  record: string | undefined;
  action: PersonAction;
  /** Throws a CliError when the job cannot take the action now (read from its records). */
  check(view: JobView, hint: (verb: string, rest?: string) => string): void;
}

export async function actOnJob(io: CliIo, request: ActRequest): Promise<number> {
  const inner = modelFromEnv(io, stderrLogger(io));
  if (inner === null) {
    io.stderr.write(`${NO_KEY_MESSAGE}\n`);
    return 1;
  }
  const { n } = request;
  const repoDir = await resolveRepo(io.cwd, request.repo);
  const cli = cliName(io.env);
  const suffix = repoArg(repoDir, request.repo);
  const texts = await readJobRecords(repoDir, n);
  if (texts === null) {
    throw new CliError(`there is no job #${n} in ${repoDir} (no branch cfa/${n}).`);
  }
  request.check(readJobView(texts), (verb, rest = "") => `\`${cli} ${verb} ${n}${rest}${suffix}\``);

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
    ...(io.workRoot ? { workRoot: io.workRoot } : {}),
  });
  try {
    const did = await applyPersonAction(
      session.forge,
      repoDir,
      { login: person, type: "User" },
      request.action,
    );
    io.stdout.write(`▶ ${did}\n`);
    return await wakeAndReport(io, session, n, { cli, repoArg: suffix }, io.signal);
  } finally {
    await recorder?.save();
  }
}

/** The job must be waiting on a review of its artifact. */
export function requireGate(view: JobView, hint: (verb: string, rest?: string) => string): void {
  requireLive(view, hint);
  if (view.pending.some((p) => p.kind === "gate")) return;
  throw new CliError(`job #${view.n} is not waiting on a review: ${waitingOn(view, hint)}`);
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

function waitingOn(view: JobView, hint: (verb: string, rest?: string) => string): string {
  const questions = view.pending.filter((p) => p.kind === "question").map((p) => p.id);
  if (questions.length > 0)
    return `it waits on your answer to ${questions.join(", ")} (${hint("answer", ' --id <id> "…"')}).`;
  return `the agents are working on it (${hint("watch", " --follow")}).`;
}
