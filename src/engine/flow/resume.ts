// Finishing what a dead wake decided but did not do (a decision is committed before its effects,
// docs/protocol.md#recorded-decisions, so a crash between the two leaves effects to run). Two
// kinds: a transition whose effects never ran, and a task whose thread was terminated (a close, a
// state's end, a withdraw) but whose workspace was never merged or dropped. Each is run from the
// committed records, and each step is idempotent.

import type { Content, Effect, TerminateMode } from "../../protocol/bus/index.js";
import type { JobRecord } from "../../protocol/job-record.js";
import { readText } from "../tree/files.js";
import { taskOfThread } from "../job/instances.js";
import {
  applyChange,
  persist,
  type BusLog,
  type Conversation,
  type JobRecords,
  type Session,
} from "../job/session.js";
import { taskDepth } from "../job/task-depth.js";
import {
  afterTransition,
  handleEffects,
  startTaskAt,
  type TransitionApplied,
} from "./transitions.js";

export async function resumeUnfinished(s: Session): Promise<void> {
  let resumed = false;
  const releases = await pendingReleases(s);
  if (releases.length > 0) {
    await handleEffects(s, releases);
    resumed = true;
  }
  if (await startSparkedTasks(s)) resumed = true;
  if (resumed) await persist(s, `cfa #${s.n}: release what a stopped wake closed`);
  const applied = unsettledTransition(s.job, s.engine.settled);
  if (applied !== null) await afterTransition(s, applied);
}

/** The last transition, if its effects never ran; `afterTransition` commits them. */
export function unsettledTransition(
  job: JobRecord,
  settled: number | undefined,
): TransitionApplied | null {
  const i = job.history.length - 1;
  if (settled === undefined || settled > i) return null;
  const entry = job.history[i]!;
  // Which entry into `from` the transition left: the record's creation is INTENT's first.
  const fromEntry =
    job.history.slice(0, i).filter((h) => h.to === entry.from).length +
    (entry.from === "INTENT" ? 1 : 0);
  return { from: entry.from, fromEntry, action: entry.action };
}

/** Release effects for open tasks whose thread the log shows terminated and whose instance is gone. */
async function pendingReleases(s: JobRecords & Conversation & BusLog): Promise<Effect[]> {
  const open = Object.values(s.engine.tasks).filter(
    (t) =>
      t.status === "open" &&
      s.soup.isTerminated(t.thread) &&
      !s.soup.instances().some((a) => a.thread === t.thread),
  );
  if (open.length === 0) return [];
  // Children are released before their parent (a sub-task merges into its
  // parent task's branch before that one merges on).
  const depth = (t: { thread: string }) =>
    taskDepth(s.engine.tasks, taskOfThread(t.thread) ?? undefined);
  open.sort((x, y) => depth(y) - depth(x));
  const modes = terminateModes((await readText(s.jobWs.root, s.paths.bus)) ?? "");
  return open.map((t) => ({
    kind: "release",
    a: { agent: "worker", thread: t.thread },
    mode: modes.get(t.thread) ?? "merge",
    parent: s.soup.parentOf(t.thread),
    rule: "term-idle",
  }));
}

/**
 * A [spark] or [unblock] the log holds whose task a stopped wake never
 * provisioned — the dispatching turn is committed before its effects run, so a wake can
 * die between the two. Its instance is in the soup but the task has no meta (or is still
 * queued): make its workspace now, from the event's first message. A queued task whose
 * wait the log ended ([term-blocked]) is dropped.
 */
async function startSparkedTasks(s: Session): Promise<boolean> {
  let changed = false;
  const live = new Set(s.soup.instances().map((a) => a.thread));
  const bus = (await readText(s.jobWs.root, s.paths.bus)) ?? "";
  for (const started of sparkEvents(bus)) {
    const task = taskOfThread(started.to.thread);
    if (task === null || !live.has(started.to.thread)) continue;
    const meta = s.engine.tasks[task];
    if (meta !== undefined && meta.status !== "queued") continue;
    await startTaskAt(s, task, started.parent, started.content);
    changed = true;
  }
  for (const [id, meta] of Object.entries(s.engine.tasks)) {
    if (meta.status === "queued" && s.soup.isTerminated(meta.thread)) {
      applyChange(s, { type: "task-status-set", id, status: "dropped" });
      changed = true;
    }
  }
  return changed;
}

/** The [spark] and [unblock] events of the log, in order. */
function sparkEvents(bus: string): { to: { thread: string }; parent: string; content: Content }[] {
  const out: { to: { thread: string }; parent: string; content: Content }[] = [];
  for (const line of bus.split("\n")) {
    if (!line.includes('"type":"spark"') && !line.includes('"type":"unblock"')) continue;
    const event = JSON.parse(line) as {
      type: string;
      to: { thread: string };
      parent: string;
      content: Content;
    };
    if (event.type === "spark" || event.type === "unblock") out.push(event);
  }
  return out;
}

/** The mode of the last Terminate the log placed on each thread. */
function terminateModes(bus: string): Map<string, TerminateMode> {
  const modes = new Map<string, TerminateMode>();
  for (const line of bus.split("\n")) {
    if (!line.includes('"type":"terminate"')) continue;
    const event = JSON.parse(line) as { thread: string; mode: TerminateMode };
    modes.set(event.thread, event.mode);
  }
  return modes;
}
