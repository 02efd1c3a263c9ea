// One command's hold on a local repository: the engine wired over the local forge, with
// the live log going to stdout as the engine works and a heartbeat during long model calls.

import type { LocalForge } from "../adapters/local/local-forge.js";
import { CONFIG_PATH, type CfaConfig } from "../config/index.js";
import type { EngineDeps } from "../engine/index.js";
import type { Clock } from "../ports/clock.js";
import type { Logger } from "../ports/logger.js";
import type { Model } from "../ports/model.js";
import type { ToolSetName } from "../records/tool-sets.js";
import type { CliIo } from "./cli-io.js";
import { withHeartbeat } from "./heartbeat.js";
import { gitTry } from "./git-text.js";
import { createLiveLog } from "./live-log.js";
import { createRecordsLog, isRunNote } from "./live-records-log.js";
import { continuedReplayClock } from "./replay-clock.js";
import { WATCH_EVENTS } from "./watch-render.js";
import { localDefaultBranch, wireLocal } from "./wiring.js";
import { claimWorkRoot, defaultWorkRoot } from "./work-root.js";

export interface LocalSession {
  repoDir: string;
  person: string;
  deps: EngineDeps;
  forge: LocalForge;
  /** Prints what the live log still holds, stops the heartbeat, keeps a replay's clock. */
  finish(): Promise<void>;
}

export interface LocalSessionOptions {
  repoDir: string;
  model: Model;
  person: string;
  verbose: boolean;
  clock?: Clock;
  /** Where job areas live; default the test seam's, else the user's cache (work-root.ts). */
  workRoot?: string;
  /** The environment agents' commands start from (reduced by each role's allowlist). */
  env: Record<string, string | undefined>;
  /** Off for replays: they never wait on a model. */
  heartbeat?: boolean;
  /** Points the model at the configured provider (no-key.ts configureOf). */
  configure?: ((config: CfaConfig) => void) | undefined;
  /** The tools a job started now gets (a replay: its recording's). */
  toolSet: ToolSetName;
}

export function stderrLogger(io: CliIo): Logger {
  const debug = io.env.CFA_DEBUG !== undefined && io.env.CFA_DEBUG !== "";
  const line = (level: string) => (message: string) => {
    io.stderr.write(`cfa: ${level}: ${message}\n`);
  };
  return {
    debug: debug ? line("debug") : () => {},
    info: debug ? line("info") : () => {},
    warn: line("warning"),
    error: line("error"),
  };
}

export async function openLocalSession(
  io: CliIo,
  options: LocalSessionOptions,
): Promise<LocalSession> {
  const log = createLiveLog({ verbose: options.verbose });
  const write = (lines: string[]) => {
    for (const l of lines) io.stdout.write(`${l}\n`);
  };
  const beat =
    options.heartbeat === false
      ? null
      : withHeartbeat(options.model, (text) => io.stderr.write(`${text}\n`));
  // One place for every verb's job areas, replays included (work-root.ts).
  const workRoot = options.workRoot ?? io.workRoot ?? defaultWorkRoot(options.repoDir, io.env);
  const claim = await claimWorkRoot(workRoot, options.repoDir);
  if (claim.followed !== undefined) io.stderr.write(`cfa: ${claim.followed}\n`);
  if (claim.replaced) {
    io.stderr.write(
      `cfa: ${workRoot} held job areas of an earlier repository at ${options.repoDir}, none of them this one's: replaced them.\n`,
    );
  }
  // A replayed repository keeps the replay's clock (replay-clock.ts); a test's clock wins.
  const replayed =
    options.clock === undefined && io.clock === undefined
      ? await continuedReplayClock(options.repoDir)
      : null;
  const clock = options.clock ?? replayed ?? undefined;
  // `.github/cfa.yml` as `cfa watch` reads it: the default branch's (job-records.ts), never
  // the checkout's.
  const records = createRecordsLog(
    log,
    await gitTry(options.repoDir, [
      "show",
      `refs/heads/${await localDefaultBranch(options.repoDir)}:${CONFIG_PATH}`,
    ]),
  );
  const { deps, forge } = await wireLocal({
    repoDir: options.repoDir,
    workRoot,
    model: beat?.model ?? options.model,
    person: options.person,
    logger: stderrLogger(io),
    env: options.env,
    toolSet: options.toolSet,
    // The log is what the records say, as `cfa watch` renders them; a progress
    // line the records do not hold (a refused key, a full disk) is a note of this run.
    progress: (line) => {
      if (isRunNote(line, WATCH_EVENTS)) write(log.push(line));
      beat?.touch();
    },
    recorded: (job, worktree, when) => write(records.recorded(job, worktree, when)),
    ...(clock ? { clock } : {}),
    ...(options.configure ? { configure: options.configure } : {}),
  });
  if (io.applyOrder !== undefined) deps.applyOrder = io.applyOrder;
  // The local forge is the person's own: they may act on it whoever created it first.
  await forge.setPermission(options.person, "admin");
  return {
    repoDir: deps.repoDir,
    person: options.person,
    deps,
    forge,
    async finish() {
      write(records.end());
      write(log.end());
      beat?.stop();
      await replayed?.save();
    },
  };
}
