// Every new workspace is set up before an agent works in it (its agent builds and tests with what
// setup installs): the job's worktree before the lead's first turn, each task's before its
// worker's, and again whenever a worktree is rebuilt (a new runner re-creates them all) or the
// setup configuration changes. A failing setup stops the job where it is: it waits for the person
// to fix `.github/cfa.yml` on the default branch and say `/retry` (or `cfa resume`), rather than
// letting agents work in a broken workspace. That wait is not a state-level failure and spends no
// retry.

import type { Address } from "../../protocol/address.js";
import type { Workspace } from "../../ports/workspaces.js";
import { taskOfThread } from "../job/instances.js";
import {
  applyChange,
  now,
  persist,
  progress,
  type Session,
  type JobRecords,
} from "../job/session.js";
import { workspaceOf } from "../turn/task-workspace.js";
import { isSetUp, markSetUp, setupDigest } from "./setup-marker.js";
import { runSetup } from "./run-setup.js";

export type Readiness = "ready" | "waiting";

/** Whether the job waits on a failed setup that nobody has asked to try again. */
export function setupBlocksJob(s: JobRecords): boolean {
  const failed = s.engine.setup?.failed;
  if (failed === undefined) return false;
  return failed.retry !== true && failed.digest === setupDigest(s.config.setup);
}

/** Sets up the workspaces these instances are about to work in; "waiting" if one failed. */
export async function prepareWorkspaces(
  s: Session,
  instances: readonly Address[],
): Promise<Readiness> {
  if (s.config.setup.commands.length === 0) return "ready";
  const seen = new Set<string>();
  for (const a of instances) {
    const task = taskOfThread(a.thread);
    const ws = await workspaceOf(s, a);
    if (seen.has(ws.root)) continue;
    seen.add(ws.root);
    if ((await ensureSetUp(s, ws, task)) === "waiting") return "waiting";
  }
  return "ready";
}

/** Sets up one workspace (`task` null: the job's) unless it already is. */
export async function ensureSetUp(
  s: Session,
  ws: Workspace,
  task: string | null,
): Promise<Readiness> {
  const setup = s.config.setup;
  if (setup.commands.length === 0) return "ready";
  if (setupBlocksJob(s)) return "waiting";
  const digest = setupDigest(setup);
  const name = task === null ? "job" : (s.engine.tasks[task]?.dir ?? `task-${task}`);
  if (await isSetUp(s.area, name, ws.root, digest)) return "ready";

  const label = task === null ? "the job's workspace" : `task ${task}`;
  progress(s, "SETUP", "START", `${label}: ${setup.commands.length} command(s)`);
  const outcome = await runSetup(s, ws, label);
  const at = now(s);
  for (const b of outcome.blocked) {
    applyChange(s, {
      type: "requests-blocked",
      by: "setup",
      at,
      blocked: b.requests.map((r) => ({
        host: r.host,
        port: r.port,
        protocol: r.protocol,
        reason: r.reason,
        command: b.command,
        count: r.count,
      })),
    });
  }
  const workspace = task ?? "job";
  applyChange(s, {
    type: "setup-ran",
    run: { workspace, at, ok: outcome.failed === null, commands: outcome.commands },
    failed: outcome.failed === null ? null : { ...outcome.failed, workspace, at, digest },
  });
  if (outcome.failed === null) {
    await markSetUp(s.area, name, ws.root, digest);
    progress(s, "SETUP", "READY", label);
  } else {
    progress(
      s,
      "SETUP",
      "WAITING",
      `${label}: \`${outcome.failed.command}\` failed; fix .github/cfa.yml on the default branch, then /retry (or cfa resume)`,
    );
  }
  await persist(s, `cfa #${s.n}: setup of ${label}${outcome.failed === null ? "" : " failed"}`);
  return outcome.failed === null ? "ready" : "waiting";
}
