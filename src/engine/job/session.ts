// One wake's hold on a job: the records loaded from the job branch, the soup folded from the
// bus, the worktrees, and the one way each of them is written back
// (docs/protocol.md#persistence).

import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { gitClient, type GitClient } from "../../git/git-client.js";
import { looseBranchIdAt } from "../../git/head-from-files.js";
import type { CfaConfig } from "../../config/index.js";
import type { Address } from "../../protocol/address.js";
import { threads } from "../../protocol/address.js";
import {
  LOG_START,
  Soup,
  encodeBatch,
  fold,
  nextCursor,
  type BusEvent,
  type LogCursor,
} from "../../protocol/bus/index.js";
import {
  newJobRecord,
  parseJobRecord,
  serializeJobRecord,
  type JobRecord,
} from "../../protocol/job-record.js";
import type { Issue } from "../../ports/forge.js";
import type { Workspace, Workspaces } from "../../ports/workspaces.js";
import type { EngineDeps } from "./engine-deps.js";
import {
  engineState,
  initialEngineState,
  withEngineState,
  type EngineState,
} from "../../records/engine-state.js";
import { appendText, readText, writeText } from "../tree/files.js";
import { JobRepo } from "../tree/job-repo.js";
import { RECORDS_DIR } from "../tree/record-ledger.js";
import { publishJobBranch, type Publisher } from "./publish-job-branch.js";
import { jobPaths, newestRoundIn, type JobPaths } from "../../records/job-paths.js";
import { MIB } from "../../git/file-size-limit.js";
import { transition } from "../../protocol/transition.js";
import { evolveRecords, type RecordChange } from "../../records/record-changes.js";

export const ORCHESTRATOR: Address = { agent: "cfa", thread: threads.job() };

export interface Session {
  readonly n: number;
  readonly deps: EngineDeps;
  readonly config: CfaConfig;
  readonly paths: JobPaths;
  readonly area: string;
  readonly workspaces: Workspaces;
  readonly jobWs: Workspace;
  readonly repo: JobRepo;
  issue: Issue;
  job: JobRecord;
  engine: EngineState;
  soup: Soup;
  log: LogCursor;
  /** What the forge's job branch holds, as far as this wake knows (compare-and-swap). */
  pushedHead: string | null;
  /** Task worktrees opened in this wake, by task id. */
  readonly taskWs: Map<string, Workspace>;
  /** Human-readable reasons the loop stopped early (a cap, a config error…). */
  notes: string[];
  /**
   * Instances (`agent@thread`) whose turn is running in the job worktree — the lead's. While
   * one runs, a commit made for anything else holds records only, never its half-written files
   * or artifact (other turns are applied while it runs, each commit holding its own files).
   */
  readonly jobTreeTurns: Set<string>;
}

// The parts of a session a step uses, named, so each function asks for those alone: read
// without the whole job in mind, and unit-tested with a few fields instead of an opened job.

/**
 * The job's records as this wake holds them, and where they are kept: read anywhere, changed
 * through applyChange.
 */
export type JobRecords = Pick<Session, "n" | "paths" | "config" | "job" | "engine">;

/**
 * The job's number and the engine's dependencies: where a step says what happened (progress
 * lines, the log), the clock it reads, the forge it asks.
 */
export type Reporter = Pick<Session, "n" | "deps">;

/** The conversation: the soup folded from the bus. */
export type Conversation = Pick<Session, "soup">;

/** The job worktree, where the records, the artifacts and the proxy's memory are on disk. */
export type JobTree = Pick<Session, "jobWs">;

/**
 * The bus log as this wake writes it: its file in the job worktree and the cursor the next
 * batch starts at (what `append` needs; a step that speaks takes it with Conversation).
 */
export type BusLog = JobTree & Pick<Session, "deps" | "paths" | "log">;

/** The job worktree's repository, read for what a commit holds (HEAD, a gate's blob). */
export type JobRepository = Pick<Session, "repo">;

/** The worktrees: the job's, the tasks' opened in this wake, and what opens them. */
export type Worktrees = Pick<Session, "engine" | "jobWs" | "taskWs" | "workspaces">;

/** What writes the records back: state.json, the commit, the job branch's push. */
export type Committer = JobRecords &
  Reporter &
  Pick<Session, "jobWs" | "repo" | "jobTreeTurns" | "pushedHead">;

export const now = (s: { deps: EngineDeps }): string => s.deps.clock.now().toISOString();

/**
 * The one way a wake changes the records it holds, besides the protocol's own updaters
 * (transition, failure accounting): a named change, evolved purely (records/record-changes.ts).
 */
export function applyChange(s: Pick<Session, "job" | "engine">, change: RecordChange): void {
  const next = evolveRecords({ job: s.job, engine: s.engine }, change);
  s.job = next.job;
  s.engine = next.engine;
}

/**
 * Opens (or starts) job `n`: its worktree on `cfa/<n>`, state.json, the folded bus. The job
 * is the newest round the branch holds (records/job-paths.ts): a follow-up once one began.
 */
export async function openSession(
  n: number,
  deps: EngineDeps,
  config: CfaConfig,
  /** Who a job started now is for; the issue's author unless the caller knows better. */
  requester?: string,
): Promise<Session> {
  const branch = jobPaths(n).branch;
  deps.configure?.(config); // the model's provider, from .github/cfa.yml
  const issue = await deps.forge.getIssue(n);
  const area = join(deps.workRoot, String(n));
  await mkdir(area, { recursive: true });
  const maxFileBytes = config.limits.fileMiB * MIB;
  const workspaces = deps.workspaces(area, { maxFileBytes });
  const { ws: jobWs, pushedHead } = await openJobWorktree(deps, workspaces, area, branch);
  const repo = new JobRepo(jobWs.root, () => deps.clock.now(), jobWs.gitDir, {
    logger: deps.logger,
    maxFileBytes,
  });
  // A wake that died mid-turn left the files of a turn that never landed; and whatever is
  // in the tree, the records are read only once they are what HEAD holds (a command may
  // have changed them on disk).
  await repo.resetToHead();
  // The reset loaded what HEAD holds under `.cfa/`: which rounds of the job there are.
  const paths = jobPaths(n, newestRoundIn(repo.records.indexedPaths(), n));
  deps.recorded?.(n, jobWs.root, "opened");

  const stateText = await readText(jobWs.root, paths.state);
  let job: JobRecord;
  let soup: Soup;
  let log: LogCursor = LOG_START;
  const fresh = stateText === null;
  if (fresh) {
    job = withEngineState(
      newJobRecord({ job: n, title: issue.title, at: deps.clock.now().toISOString() }),
      initialEngineState(requester ?? issue.author.login, deps.toolSet),
    );
    soup = new Soup({ fanOutCap: config.fanOut });
  } else {
    job = parseJobRecord(stateText, paths.state);
    const busText = (await readText(jobWs.root, paths.bus)) ?? "";
    const folded = fold(busText, { fanOutCap: config.fanOut });
    if (folded.committed.chars < busText.length) {
      // The tail is a batch a crash cut short: it never happened (bounded crash-loss).
      deps.logger.warn("cfa/engine: dropping an unfinished batch at the end of the bus log", {
        job: n,
      });
      await writeText(jobWs.root, paths.bus, busText.slice(0, folded.committed.chars));
    }
    soup = folded.soup;
    log = { seq: folded.seq, batch: folded.batch };
    job = reconcileTransitions(job, folded.audit);
  }
  const session: Session = {
    n,
    deps,
    config,
    paths,
    area,
    workspaces,
    jobWs,
    repo,
    issue,
    job,
    engine: engineState(job),
    soup,
    log,
    pushedHead,
    taskWs: new Map(),
    notes: [],
    jobTreeTurns: new Set(),
  };
  await resetTaskWorktrees(session);
  if (fresh) {
    await append(session, session.soup.root(ORCHESTRATOR).events);
    await saveState(session);
    await commitAndPush(session, `cfa #${n}: start job`);
  }
  return session;
}

/** Task worktrees a dead wake was working in go back to their last commit too. */
export async function resetTaskWorktrees(s: Session): Promise<void> {
  for (const meta of Object.values(s.engine.tasks)) {
    if (meta.status !== "open" && meta.status !== "conflict") continue;
    const root = join(s.area, meta.dir);
    // No git dir at hand: the tree's `.git` is followed only once the repository confirms it.
    if (existsSync(root)) {
      await new JobRepo(root, undefined, undefined, { logger: s.deps.logger }).resetToHead();
    }
  }
}

/**
 * The bus is the single source of truth (docs/protocol.md#persistence): a transition appended to
 * the log but not yet to state.json (a crash between the two writes) is replayed into the record.
 */
function reconcileTransitions(job: JobRecord, audit: ReturnType<typeof fold>["audit"]): JobRecord {
  const logged = audit.flatMap((entry) => (entry.type === "transition" ? [entry.entry] : []));
  if (logged.length <= job.history.length) return job;
  // Replayed through transition() itself, so backtracks and entries count as they did.
  return logged
    .slice(job.history.length)
    .reduce(
      (next, entry) =>
        transition(next, entry.action, { at: entry.at, by: entry.by, reason: entry.reason }),
      job,
    );
}

/** Whether job `n` has begun: its branch exists here (or on the clone's remote), or its worktree. */
export async function jobStarted(n: number, deps: EngineDeps): Promise<boolean> {
  const branch = jobPaths(n).branch;
  if (existsSync(join(deps.workRoot, String(n), "job"))) return true;
  const git = gitClient(deps.repoDir);
  return (
    (await revParse(deps.repoDir, git, `refs/heads/${branch}`)) !== null ||
    (await revParse(deps.repoDir, git, `refs/remotes/origin/${branch}`)) !== null
  );
}

async function openJobWorktree(
  deps: EngineDeps,
  workspaces: Workspaces,
  area: string,
  branch: string,
): Promise<{ ws: Workspace; pushedHead: string | null }> {
  const git = gitClient(deps.repoDir);
  const dir = join(area, "job");
  const local = await revParse(deps.repoDir, git, `refs/heads/${branch}`);
  if (existsSync(dir)) {
    return { ws: await workspaces.open("job", branch), pushedHead: local };
  }
  if (local !== null) {
    await git.raw(["worktree", "prune"]);
    await git.raw(["worktree", "add", dir, branch]);
    return { ws: await workspaces.open("job", branch), pushedHead: local };
  }
  const base = await deps.forge.defaultBranch();
  const from =
    (await revParse(deps.repoDir, git, `refs/heads/${base}`)) ??
    (await revParse(deps.repoDir, git, `refs/remotes/origin/${base}`)) ??
    (await revParse(deps.repoDir, git, "HEAD"));
  if (from === null)
    throw new Error(`cfa/engine: cannot find the default branch ${base} in ${deps.repoDir}`);
  return { ws: await workspaces.create({ name: "job", branch, from }), pushedHead: null };
}

/** A branch's loose ref is read without git (head-from-files.ts); anything else asks git. */
async function revParse(repoDir: string, git: GitClient, ref: string): Promise<string | null> {
  const loose = await looseBranchIdAt(repoDir, ref);
  if (loose !== null) return loose;
  try {
    const out = (await git.raw(["rev-parse", "--verify", "--quiet", ref])).trim();
    return out || null;
  } catch {
    return null;
  }
}

// ---- writing records back ----

/** The session's bus write in flight, if any: the next append waits for it. */
const appending = new WeakMap<BusLog, Promise<void>>();

/**
 * Appends one batch to the bus log in one write: a batch is all or nothing
 * (docs/protocol.md#persistence).
 * One at a time per session, in call order: without a round barrier a turn ends and appends
 * while another batch is still being written, and a batch encoded from the cursor before that
 * write ended would repeat its seqs (the bus log then no longer folds). The cursor moves only
 * once the write is done, so a failed write (a full disk) leaves no gap for the next.
 */
export function append(s: BusLog, events: readonly BusEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  const before = appending.get(s) ?? Promise.resolve();
  const written = before
    .catch(() => {}) // its own caller was told; this batch still goes in
    .then(async () => {
      const text = encodeBatch(events, { ...s.log, at: now(s) });
      await appendText(s.jobWs.root, s.paths.bus, text);
      s.log = nextCursor(s.log, events);
    });
  appending.set(s, written);
  return written;
}

/** Waits until no bus write is in flight (before the log is read back from the worktree). */
export async function appendsSettled(s: BusLog): Promise<void> {
  await (appending.get(s) ?? Promise.resolve()).catch(() => {});
}

export async function saveState(s: Committer): Promise<void> {
  s.job = withEngineState(s.job, s.engine);
  await writeText(s.jobWs.root, s.paths.state, serializeJobRecord(s.job));
}

/**
 * Commits the job worktree (one commit per turn) and publishes the branch with the expected
 * old commit: never forced, so no record on the branch is lost (docs/protocol.md#persistence).
 * `paths` limits the commit to records when another instance's edits must not ride along.
 */
export async function commitAndPush(
  s: Committer,
  message: string,
  paths?: string[],
): Promise<string | null> {
  // A lead's turn running in the job worktree: what it has written so far is not this commit's
  // (neither in a whole-tree commit nor in one of the records alone).
  const recordsOnly =
    (paths === undefined || (paths.length === 1 && paths[0] === RECORDS_DIR)) &&
    s.jobTreeTurns.size > 0;
  const sha = recordsOnly
    ? await s.repo.commit(message, [RECORDS_DIR], { artifacts: false })
    : await s.repo.commit(message, paths);
  if (sha === null) return null;
  s.deps.recorded?.(s.n, s.jobWs.root, "committed");
  const publisher: Publisher = {
    n: s.n,
    branch: s.paths.branch,
    repo: s.repo,
    forge: s.deps.forge,
    pushedHead: s.pushedHead,
    note: (event, detail) => progress(s, "GIT", event, detail),
  };
  try {
    await publishJobBranch(publisher, sha);
  } finally {
    s.pushedHead = publisher.pushedHead;
  }
  return sha;
}

/**
 * Records the job record and commits the records alone: for a step where no agent touched
 * the job worktree since its last commit (a question asked, a comment posted, replies read,
 * a lead sparked), so the tree is not looked at (most of a job's commits are these).
 */
export async function persistRecords(s: Committer, message: string): Promise<void> {
  await persist(s, message, [RECORDS_DIR]);
}

/** Records the job record and commits: the usual end of any step that changed state. */
export async function persist(s: Committer, message: string, paths?: string[]): Promise<void> {
  await saveState(s);
  await commitAndPush(s, message, paths);
}

export function progress(s: Reporter, who: string, event: string, detail: string, verbose = false) {
  s.deps.progress?.({ at: now(s), job: s.n, who, event, detail, verbose });
  s.deps.logger.info(`cfa #${s.n} ${who} ${event} ${detail}`);
}
