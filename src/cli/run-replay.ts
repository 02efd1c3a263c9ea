// Replay (cache-only, docs/protocol.md#recorded-decisions): a fresh repository with the recorded
// files, the recorded request opened as an issue, the engine woken, then each of the person's
// actions applied in order and the engine woken again — every model response played from the
// recording, nothing sent anywhere. The stepping clock makes the records repeatable.
// A request the recording does not expect is a divergence: the replay stops there.

import { lstat, mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createScriptedModel, ScriptMismatchError } from "../adapters/scripted/index.js";
import { parseConfig, CONFIG_PATH } from "../config/index.js";
import { wake, type WakeSummary } from "../engine/index.js";
import { toolSetOf } from "../records/tool-sets.js";
import type { Model } from "../ports/model.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { fsReason } from "./fs-reason.js";
import { gitText } from "./git-text.js";
import { openLocalSession } from "./local-session.js";
import { applyPersonAction } from "./person-action.js";
import { readJobRecords } from "./job-records.js";
import { readJobView } from "./job-view.js";
import { replayClock } from "./replay-clock.js";
import type { ReplayFile } from "./replay-file.js";

/** Where a replay's clock starts: any fixed instant makes the records repeatable. */
export const REPLAY_CLOCK_START = "2026-03-02T09:30:00.000Z";

export interface ReplayRun {
  /** The folder holding `repo/`, the repository (its job areas live where every verb's do). */
  root: string;
  repoDir: string;
  job: number;
  summary: WakeSummary;
  /** Recorded steps the run never asked for, per instance (none when it replayed exactly). */
  unplayed: Record<string, number>;
  /** The first request the recording did not expect, if the replay diverged. */
  divergence: ScriptMismatchError | null;
  /** Stopped from outside (Ctrl-C) before the end. */
  stopped: boolean;
  /** `--until`: the gate asked for, and whether the replay stopped there. */
  until?: { gate: string; reached: boolean; gates: string[] };
}

export interface ReplayOptions {
  /** Names the file in messages. */
  source: string;
  /** Where to build the repository (must be empty or absent); default a new temp folder. */
  dir?: string;
  verbose: boolean;
  /** Printed before each of the person's actions. */
  onAction?: (text: string) => void;
  /** Stop when this gate (q1, q4…) waits on the person, as a live job would stop there. */
  until?: string;
}

export async function runReplay(
  io: CliIo,
  file: ReplayFile,
  options: ReplayOptions,
): Promise<ReplayRun> {
  const root = await freshFolder(options.dir, io.env.TMPDIR);
  const repoDir = join(root, "repo");
  await createRepository(repoDir, file);

  const scripted = createScriptedModel(file.recording, { source: options.source });
  const clock = await replayClock(repoDir, REPLAY_CLOCK_START);
  const stop = new AbortController();
  // Stopped by a divergence, or from outside (Ctrl-C).
  const signal = io.signal ? AbortSignal.any([stop.signal, io.signal]) : stop.signal;
  let divergence: ScriptMismatchError | null = null;
  const model: Model = {
    async complete(request, callOptions) {
      try {
        return await scripted.complete(request, callOptions);
      } catch (error) {
        if (error instanceof ScriptMismatchError && divergence === null) {
          divergence = error;
          stop.abort(error);
        }
        throw error;
      }
    },
  };
  const session = await openLocalSession(io, {
    repoDir,
    model,
    person: file.person,
    verbose: options.verbose,
    clock,
    // Commands (if the recording runs any) start from a bare environment: no secrets.
    env: { PATH: io.env.PATH ?? "/usr/bin:/bin", HOME: io.env.HOME },
    heartbeat: false,
    // The agents get the tools the recorded responses call (src/records/tool-sets.ts).
    toolSet: toolSetOf((file.recording as { toolSet?: unknown } | null)?.toolSet),
  });
  // A replay's records come out the same every time: turns are applied in the order they
  // started (engine/apply/turn-scheduler.ts), which costs nothing with a model that answers
  // at once.
  session.deps.applyOrder = "started";
  // Nothing a replay is answered is paid: its journal stays in the job area's file.
  session.deps.journalBranch = false;
  const person = { login: file.person, type: "User" as const };
  const parsed = parseConfig(file.config ?? null);
  const label = parsed.ok ? parsed.config.label : "cfa";
  let summary: WakeSummary;
  let job = 0;
  const until =
    options.until === undefined
      ? undefined
      : { gate: options.until, reached: false, gates: [] as string[] };
  try {
    job = await session.forge.openIssue({
      title: file.request.title,
      body: file.request.body,
      labels: [label],
      author: person,
    });
    summary = await wakeUnlessDiverged(job, session, signal);
    for (const action of file.people) {
      if (signal.aborted) break;
      if (until !== undefined && (await waitsAtGate(repoDir, job, until))) break;
      options.onAction?.(`▶ ${await applyPersonAction(session.forge, repoDir, person, action)}`);
      summary = await wakeUnlessDiverged(action.job, session, signal);
    }
    if (until !== undefined) await waitsAtGate(repoDir, job, until);
  } finally {
    await session.finish();
    await clock.save();
  }
  const unplayed = Object.fromEntries(
    Object.entries(scripted.remaining()).filter(([, left]) => left > 0),
  );
  return {
    root,
    repoDir,
    job,
    summary,
    unplayed,
    divergence,
    stopped: io.signal?.aborted === true,
    ...(until !== undefined ? { until } : {}),
  };
}

/** Whether the job waits on `until`'s gate now; notes every gate it has asked. */
async function waitsAtGate(
  repoDir: string,
  job: number,
  until: { gate: string; reached: boolean; gates: string[] },
): Promise<boolean> {
  if (until.reached) return true;
  const texts = await readJobRecords(repoDir, job);
  if (texts === null) return false;
  const view = readJobView(texts);
  for (const p of view.pending) {
    if (p.kind === "gate" && !until.gates.includes(p.id)) until.gates.push(p.id);
  }
  until.reached = view.pending.some((p) => p.kind === "gate" && p.id === until.gate);
  return until.reached;
}

async function wakeUnlessDiverged(
  n: number,
  session: Awaited<ReturnType<typeof openLocalSession>>,
  signal: AbortSignal,
): Promise<WakeSummary> {
  try {
    return await wake(n, session.deps, { signal });
  } catch (error) {
    if (signal.aborted) return { job: n, state: null, waitingOn: "", notes: [] };
    throw error;
  }
}

async function freshFolder(dir: string | undefined, tmp: string | undefined): Promise<string> {
  // The command's own TMPDIR (os.tmpdir() reads the process's, which a test cannot set per run).
  const root = resolve(dir ?? (tmp || tmpdir()));
  // The agents' boundary check refuses workspaces in system trees (src/agents/boundary):
  // say so now rather than let the replay diverge at the first file it writes.
  if (/^\/(dev|proc|sys)(\/|$)/.test(root)) {
    throw new CliError(
      `${root} is under /dev, /proc or /sys, where agents may not work: choose another folder (--dir, or TMPDIR).`,
    );
  }
  if (dir === undefined) return mkdtemp(join(root, "cfa-replay-"));
  const stats = await lstat(root).catch(() => undefined);
  if (stats !== undefined && !stats.isDirectory()) {
    throw new CliError(
      `${root} is not a folder: a replay builds its repository in an empty folder.`,
    );
  }
  if (stats !== undefined && (await readdir(root)).length > 0) {
    throw new CliError(`${root} is not empty: a replay builds its repository in an empty folder.`);
  }
  try {
    await mkdir(root, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot make ${root}: ${fsReason(error)}.`);
  }
  return root;
}

async function createRepository(repoDir: string, file: ReplayFile): Promise<void> {
  await mkdir(repoDir, { recursive: true });
  await gitText(repoDir, ["init", "--quiet", "--initial-branch=main"]);
  await gitText(repoDir, ["config", "user.name", file.person]);
  await gitText(repoDir, ["config", "user.email", `${file.person}@users.noreply.github.com`]);
  await gitText(repoDir, ["config", "commit.gpgsign", "false"]);
  const files = { ...(file.files ?? {}) };
  if (file.config !== undefined) files[CONFIG_PATH] = file.config;
  for (const [path, text] of Object.entries(files)) {
    const target = join(repoDir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  await gitText(repoDir, ["add", "--all"]);
  await gitText(repoDir, ["commit", "--quiet", "--allow-empty", "--no-verify", "-m", "initial"]);
}
