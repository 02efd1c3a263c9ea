// Runs the repository's setup commands in one workspace: in the
// sandbox, as any agent's command is, but with setup's own network (setup-network.ts) and the
// job's shared package caches bound in. Stops at the first command that fails. What a command
// left behind is checked as after an agent's command (the `.git` pointer, nested
// repositories, the engine's records), since it runs the job branch's own scripts (npm's
// lifecycle scripts, a Makefile) that agents can edit.

import { egressFor } from "../../config/index.js";
import { setupCommandText } from "../../config/index.js";
import { reduceEnv, relativeToWorkspace, withToolDefaults } from "../../agents/commands/index.js";
import type { BlockedRequest, CommandResult } from "../../ports/sandbox.js";
import type { Workspace } from "../../ports/workspaces.js";
import { evidenceOf, type CommandEvidence } from "../../records/command-evidence.js";
import { OUTCOME_PATH, PROTECTED_PREFIXES } from "../../records/job-paths.js";
import { clip } from "../../secrets/index.js";
import { containWorkspace, prepareWorkspace } from "../tree/contain-workspace.js";
import { JobRepo } from "../tree/job-repo.js";
import { progress, type Session } from "../job/session.js";
import { setupNetwork } from "./setup-network.js";
import { sharedCaches } from "./shared-caches.js";

/** Enough of npm's or pip's output to reach the error at its end. */
const SETUP_OUTPUT_BYTES = 1024 * 1024;
const TAIL_LINES = 15;
const TAIL_CHARS = 2000;

export interface SetupOutcome {
  commands: CommandEvidence[];
  /** The command that failed and its output's last lines; null when all passed. */
  failed: { command: string; exitCode: number | null; tail: string } | null;
  blocked: { command: string; requests: BlockedRequest[] }[];
}

export async function runSetup(s: Session, ws: Workspace, label: string): Promise<SetupOutcome> {
  const outcome: SetupOutcome = { commands: [], failed: null, blocked: [] };
  const network = egressFor(await setupNetwork(s));
  const caches = await sharedCaches(s.area);
  const repo = new JobRepo(ws.root, undefined, ws.gitDir, { logger: s.deps.logger });
  await prepareWorkspace(repo);
  for (const argv of s.config.setup.commands) {
    const text = setupCommandText(argv);
    progress(s, "SETUP", "RUN", `${label}: ${text}`, true);
    let result: CommandResult;
    try {
      const sandbox = await s.deps.sandbox(s.config.sandbox);
      result = await sandbox.run({
        argv,
        cwd: ws.root,
        env: withToolDefaults(reduceEnv(s.deps.env, [], { home: ws.root })),
        timeoutMs: s.config.setup.timeoutSeconds * 1000,
        maxOutputBytes: Math.max(s.config.limits.commandOutputBytes, SETUP_OUTPUT_BYTES),
        network,
        caches,
        ...(ws.home === undefined ? {} : { home: ws.home }),
        limits: s.config.commandLimits.worker,
      });
      // Its last lines are kept in the job's records: the worktree's path relative to itself.
      result = {
        ...result,
        stdout: relativeToWorkspace(result.stdout, ws.root),
        stderr: relativeToWorkspace(result.stderr, ws.root),
      };
    } catch (error) {
      // The sandbox refused to run it (bwrap missing, a bad request): the same wait.
      const message = (error as Error).message ?? String(error);
      outcome.commands.push({ command: clipLine(text), exitCode: null, durationMs: 0 });
      outcome.failed = { command: text, exitCode: null, tail: clip(message, TAIL_CHARS) };
      break;
    }
    if (result.blocked !== undefined && result.blocked.length > 0) {
      outcome.blocked.push({ command: text, requests: result.blocked });
    }
    const contained = await containWorkspace(repo, {
      ...(ws.gitDir ? { gitDir: ws.gitDir } : {}),
      protect: PROTECTED_PREFIXES,
      ownRecord: (file) =>
        ws.root === s.jobWs.root &&
        (file.startsWith(`${s.paths.dir}/`) || file === OUTCOME_PATH || file === ".cfa"),
    });
    for (const note of contained.notes) s.deps.logger.warn(`cfa #${s.n} setup (${label}): ${note}`);
    const evidence = evidenceOf(text, result);
    outcome.commands.push(evidence);
    const ok = result.exitCode === 0 && !result.timedOut;
    progress(
      s,
      "SETUP",
      ok ? "DONE" : "FAILED",
      `${label}: ${text} — ${result.timedOut ? "timed out" : `exit ${result.exitCode ?? result.signal ?? "?"}`} in ${seconds(result.durationMs)}`,
      ok,
    );
    if (!ok) {
      outcome.failed = {
        command: text,
        exitCode: result.exitCode,
        tail: lastLines(result, s.config.setup.timeoutSeconds),
      };
      break;
    }
  }
  return outcome;
}

function clipLine(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The output's last lines, redacted before it is cut (a secret cut in half is not found). */
function lastLines(result: CommandResult, timeoutSeconds: number): string {
  const text = redactedTail(`${result.stdout}\n${result.stderr}`);
  if (result.timedOut)
    return `${text}\n(stopped after ${timeoutSeconds} s: setup.timeoutSeconds)`.trim();
  return text;
}

function redactedTail(output: string): string {
  const lines = clip(output, Number.MAX_SAFE_INTEGER, "setup output")
    .split(/\r?\n/u)
    .map((line) => line.trimEnd())
    .filter((line) => line !== "");
  const tail = lines.slice(-TAIL_LINES).map((l) => (l.length > 300 ? `${l.slice(0, 299)}…` : l));
  const joined = tail.join("\n");
  return joined.length > TAIL_CHARS ? joined.slice(-TAIL_CHARS) : joined;
}
