// `cfa run`'s work once its arguments are read (commands/run.ts): the model, the repository,
// the replay file to record into, then a local issue labelled cfa opened and woken.

import { resolve } from "node:path";
import { parseConfig, type CfaConfig } from "../config/index.js";
import type { CliIo } from "./cli-io.js";
import { cliName } from "./command.js";
import { countOf } from "./count-of.js";
import { openLocalSession, stderrLogger } from "./local-session.js";
import { configureOf, modelFromEnv, noKeyMessage } from "./no-key.js";
import { personLogin } from "./person.js";
import { recordInto, refuseExisting, type Recorder } from "./recorder.js";
import { emptyRecording, REPLAY_VERSION } from "./replay-file.js";
import { repoArg, resolveRepo } from "./resolve-repo.js";
import { snapshotFiles } from "./snapshot-files.js";
import { wakeAndReport } from "./wake-and-report.js";

export async function startJob(
  io: CliIo,
  o: {
    request: string;
    title: string;
    repo: string | undefined;
    record: string | undefined;
    verbose: boolean;
  },
): Promise<number> {
  const { request, title } = o;
  const logger = stderrLogger(io);
  const inner = modelFromEnv(io, logger);
  if (inner === null) {
    io.stderr.write(`${noKeyMessage(cliName(io.env))}\n`);
    return 1;
  }
  const repoDir = await resolveRepo(io.cwd, o.repo);
  const record = o.record === undefined ? undefined : resolve(io.cwd, o.record);
  if (record !== undefined) refuseExisting(record);
  const person = await personLogin(repoDir, io.env);

  let recorder: Recorder | null = null;
  if (record !== undefined) {
    const snapshot = await snapshotFiles(repoDir);
    if (snapshot.skipped.length > 0) {
      io.stderr.write(
        `cfa: the replay file leaves out ${countOf(snapshot.skipped.length, "large or binary file")}: ${snapshot.skipped.slice(0, 5).join(", ")}${snapshot.skipped.length > 5 ? ", …" : ""}\n`,
      );
    }
    recorder = recordInto(
      record,
      {
        version: REPLAY_VERSION,
        request: { title, body: request },
        person,
        files: snapshot.files,
        ...(snapshot.config !== null ? { config: snapshot.config } : {}),
        recording: emptyRecording(),
        people: [],
      },
      inner,
    );
  }
  return start(io, {
    repoDir,
    person,
    title,
    request,
    verbose: o.verbose,
    recorder,
    model: recorder?.model ?? inner,
    repoGiven: o.repo,
    configure: configureOf(inner),
  });
}

async function start(
  io: CliIo,
  o: {
    repoDir: string;
    person: string;
    title: string;
    request: string;
    verbose: boolean;
    recorder: Recorder | null;
    model: NonNullable<ReturnType<typeof modelFromEnv>>;
    repoGiven: string | undefined;
    configure?: ((config: CfaConfig) => void) | undefined;
  },
): Promise<number> {
  const session = await openLocalSession(io, {
    repoDir: o.repoDir,
    model: o.model,
    person: o.person,
    verbose: o.verbose,
    env: io.env,
    configure: o.configure,
    ...(io.clock ? { clock: io.clock } : {}),
  });
  try {
    const parsedConfig = parseConfig(await session.forge.readConfig());
    const label = parsedConfig.ok ? parsedConfig.config.label : "cfa";
    const n = await session.forge.openIssue({
      title: o.title,
      body: o.request,
      labels: [label],
      author: { login: o.person, type: "User" },
    });
    io.stdout.write(`Opened job #${n} in ${o.repoDir}: "${o.title}"\n`);
    return await wakeAndReport(
      io,
      session,
      n,
      {
        cli: cliName(io.env),
        repoArg: repoArg(o.repoDir, o.repoGiven),
        ...(o.repoGiven !== undefined ? { repoDir: o.repoDir } : {}),
      },
      io.signal,
    );
  } finally {
    await o.recorder?.save();
  }
}
