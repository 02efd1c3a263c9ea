// A Session (src/engine/job/session.ts) for the engine core's unit tests, without git: the
// records in memory as openSession would hold them for a new job, the job worktree a plain
// temp folder (the engine writes its records there through the file boundary), a job
// repository that counts commits instead of making them, and the memory forge. A test gives
// the records, runs one engine step, and reads what it decided: the record, the bus, the
// comments queued, the commits and what reached the forge.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { parseConfig, type CfaConfig } from "../../../src/config/index.js";
import type { ProgressLine } from "../../../src/engine/index.js";
import { proxiesToRun, runProxy } from "../../../src/engine/flow/escalations.js";
import { currentLead } from "../../../src/engine/job/instances.js";
import { ensureLead } from "../../../src/engine/flow/leads.js";
import { pollInterventions } from "../../../src/engine/people/poll-interventions.js";
import { runtimeOf } from "../../../src/engine/turn/wake-runtime.js";
import {
  append,
  applyChange,
  ORCHESTRATOR,
  type Session,
} from "../../../src/engine/job/session.js";
import type { JobRepo } from "../../../src/engine/tree/job-repo.js";
import { readText } from "../../../src/engine/tree/files.js";
import { addressKey, type Address } from "../../../src/protocol/address.js";
import { fold, LOG_START, Soup, type AuditEntry } from "../../../src/protocol/bus/index.js";
import type { Action, LiveState } from "../../../src/protocol/fsm.js";
import { newJobRecord, type JobRecord } from "../../../src/protocol/job-record.js";
import { transition } from "../../../src/protocol/transition.js";
import type { Workspace, Workspaces } from "../../../src/ports/workspaces.js";
import { initialEngineState, withEngineState } from "../../../src/records/engine-state.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { nextEscalationId } from "../../../src/records/record-changes.js";
import { removeDir, tempDir } from "../git/temp-repo.js";
import { memoryForge, type MemoryForge } from "./memory-forge.js";
import { unitDeps } from "./session-parts.js";

export interface MemorySession {
  s: Session;
  forge: MemoryForge;
  /** Commit messages, in order: what `persist` and `commitAndPush` committed. */
  commits: string[];
  lines: ProgressLine[];
  warnings: string[];
  /** What the Workspaces port was asked: `drop t1`, `close t1 → job`, … */
  workspaceCalls: string[];
  /** What the job repository's `blobAt` answers: the artifact's blob in a commit. */
  blobs: Map<string, string>;
  /** The branches the job repository has (`hasBranch`): the task branches a test made. */
  branches: Set<string>;
  /** The next commit finds nothing to commit (git's "nothing to commit"). */
  nothingToCommit(): void;
  /** The bus log's audit entries (transitions, …), folded from what the engine appended. */
  audit(): Promise<AuditEntry[]>;
  /** Queued record comments' kinds, in seq order. */
  queued(): string[];
}

const sessions: string[] = [];
afterEach(() => {
  for (const root of sessions.splice(0)) removeDir(root);
});

/**
 * Job 1, opened by Ana, in the state `walk` leads to from INTENT (each action applied by the
 * protocol's own `transition`), under `config` (.github/cfa.yml's text; defaults if absent).
 */
export async function memorySession(
  options: { config?: string; walk?: Action[]; forge?: MemoryForge } = {},
): Promise<MemorySession> {
  const parsed = parseConfig(options.config ?? null);
  if (!parsed.ok) throw new Error(`test: bad config: ${JSON.stringify(parsed.errors)}`);
  const config: CfaConfig = parsed.config;
  const forge = options.forge ?? memoryForge();
  const root = tempDir("cfa-session-");
  sessions.push(root);
  const commits: string[] = [];
  const lines: ProgressLine[] = [];
  const warnings: string[] = [];
  const workspaceCalls: string[] = [];
  const blobs = new Map<string, string>();
  const branches = new Set<string>();
  let empty = false;

  const workspace = (name: string, branch: string): Workspace => {
    mkdirSync(join(root, name), { recursive: true });
    return { root: join(root, name), branch };
  };
  const workspaces: Workspaces = {
    create: async (request) => {
      workspaceCalls.push(`create ${request.name} from ${request.from}`);
      return workspace(request.name, request.branch);
    },
    open: async (name, branch) => {
      workspaceCalls.push(`open ${name}`);
      return workspace(name, branch);
    },
    close: async (child, into) => {
      workspaceCalls.push(`close ${child.branch} → ${into.branch}`);
      return { kind: "merged", commit: "f".repeat(40) };
    },
    drop: async (child) => {
      workspaceCalls.push(`drop ${child.branch}`);
    },
  };
  // Counts commits; `blobAt` knows the commits the test put in `blobs`.
  const repo = {
    commit: async (message: string) => {
      if (empty) {
        empty = false;
        return null;
      }
      commits.push(message);
      return String(commits.length).padStart(40, "0");
    },
    head: async () => String(commits.length).padStart(40, "0"),
    blobAt: async (commit: string) => blobs.get(commit) ?? null,
    fileAt: async () => null,
    hasBranch: async (branch: string) => branches.has(branch),
    branchHead: async (branch: string) => (branches.has(branch) ? TASK_HEAD : null),
    resetToHead: async () => undefined,
    // One line of history: commit k's ancestors are the commits before it.
    isAncestor: async (ancestor: string, descendant: string) =>
      Number(ancestor) <= Number(descendant),
    // Commit k was made on commit k − 1 (as JobRepo reads it from git's reflog).
    parentOf: (commit: string) =>
      Number(commit) > 1 ? String(Number(commit) - 1).padStart(40, "0") : undefined,
    moveTo: async () => true,
  } as unknown as JobRepo;

  const deps = unitDeps({ forge, root, lines, warnings, workspaces: () => workspaces });

  const at = "2026-11-22T10:00:00.000Z";
  let job: JobRecord = newJobRecord({ job: 1, title: forge.issue.title, at });
  for (const action of options.walk ?? []) {
    job = transition(job, action, { at, by: "@ana", reason: `test: ${action}` });
  }
  const engine = initialEngineState("ana");
  const paths = jobPaths(1);
  const s: Session = {
    n: 1,
    deps,
    config,
    paths,
    area: root,
    workspaces,
    jobWs: workspace("job", paths.branch),
    repo,
    issue: await forge.getIssue(1),
    job: withEngineState(job, engine),
    engine,
    soup: new Soup({ fanOutCap: config.fanOut }),
    log: LOG_START,
    pushedHead: null,
    taskWs: new Map(),
    notes: [],
    jobTreeTurns: new Set(),
  };
  // As openSession starts a job: the orchestrator's root on the job thread.
  await append(s, s.soup.root(ORCHESTRATOR).events);
  // As a wake does: turns look at people's commands between model calls.
  runtimeOf(s).poll = () => pollInterventions(s);
  return {
    s,
    forge,
    commits,
    lines,
    warnings,
    workspaceCalls,
    blobs,
    branches,
    nothingToCommit: () => {
      empty = true;
    },
    audit: async () =>
      fold((await readText(s.jobWs.root, paths.bus)) ?? "", { fanOutCap: config.fanOut }).audit,
    queued: () => s.engine.outbox.map((item) => item.kind),
  };
}

/** `memorySession` with the state's lead sparked and at work on its first message. */
export async function withLead(
  options: Parameters<typeof memorySession>[0] = {},
): Promise<MemorySession & { lead: Address }> {
  const session = await memorySession(options);
  await ensureLead(session.s);
  const lead = currentLead(session.s)!;
  await append(session.s, session.s.soup.wake(lead).events);
  return { ...session, lead };
}

/** Open tasks, recorded as provisionTask leaves them, each with its branch in the repository. */
export function openTasks(session: MemorySession, ...tasks: [id: string, parent?: string][]) {
  const { s } = session;
  for (const [id, parent] of tasks) {
    applyChange(s, {
      type: "task-recorded",
      id,
      meta: {
        thread: `dispatch:${id}`,
        branch: s.paths.taskBranch(id),
        dir: `task-${id}`,
        base: "0".repeat(40),
        brief: `do ${id}`,
        status: "open",
        verifyFailures: 0,
        ...(parent === undefined ? {} : { parent }),
      },
    });
    session.branches.add(s.paths.taskBranch(id));
    // Published, as a task's branch is once its worker's turn is committed.
    session.forge.heads.set(s.paths.taskBranch(id), TASK_HEAD);
  }
}

/** Where every task branch of a memory session is, locally and on the forge. */
const TASK_HEAD = "7".repeat(40);

/** The recovery messages (a failed run's retry, as mail) in `a`'s mailbox, oldest first. */
export function recoveriesTo(session: MemorySession, a: Address): string[] {
  return session.s.soup
    .mailbox(a)
    .filter((m) => m.kind === "recovery")
    .map((m) => m.text);
}

/**
 * The lead asks the person (escalation policy `always`), as applyTurn records an ask and the
 * engine then moves the proxy: the escalation's id, its question put to the person.
 */
export async function leadAsks(
  session: MemorySession & { lead: Address },
  question: { kind: "gate" | "question"; text: string; artifact?: string },
): Promise<string> {
  const { s, lead } = session;
  const id = nextEscalationId(s.engine);
  const state = s.job.state as LiveState;
  applyChange(s, {
    type: "escalation-opened",
    meta: { caller: addressKey(lead), kind: question.kind, state, text: question.text },
  });
  if (question.artifact !== undefined) {
    applyChange(s, { type: "escalation-noted", id, patch: { artifact: question.artifact } });
  }
  const asked = s.soup.endTurn(lead, {
    rule: "ask-step",
    id,
    question: {
      kind: question.kind,
      text: question.text,
      ...(question.artifact === undefined ? {} : { data: { artifact: question.artifact } }),
    },
    policy: "always",
  });
  await append(s, asked.events);
  // Under `always` the proxy does not run: the engine puts the question to the person.
  for (const proxy of proxiesToRun(s)) await runProxy(s, proxy);
  return id;
}

/** The lead's mail once the engine relays what the person replied (the proxy's post-human move). */
export async function leadMail(session: MemorySession & { lead: Address }): Promise<string[]> {
  for (const proxy of proxiesToRun(session.s)) await runProxy(session.s, proxy);
  return session.s.soup.mailbox(session.lead).map((m) => m.text);
}
