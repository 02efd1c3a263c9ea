// The verbs a person uses on a waiting job (approve, reject, answer, withdraw, intervene):
// check that the job exists and the action makes sense now, then the key (a wrong job
// number or a job that cannot take the action is the more useful answer), do it on the
// local forge, wake the job and report. Nothing is changed before every check passed.

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
  const already = request.check(
    readJobView(texts),
    (verb, rest = "") => `\`${cli} ${verb} ${n}${rest}${suffix}\``,
  );
  if (typeof already === "string") {
    io.stdout.write(`${already}\n`);
    return 0;
  }
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
