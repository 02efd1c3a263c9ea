// Reading back what a job left: the job branch's commits and files, the bot's structured
// comments, the bus log folded, an instance's transcript.

import { fold } from "../../../src/protocol/bus/index.js";
import { readHiddenBlock, type HiddenBlock } from "../../../src/comments/hidden-block.js";
import { jobPaths } from "../../../src/records/job-paths.js";
import { loadTranscript } from "../../../src/agents/transcript/index.js";
import type { Comment } from "../../../src/ports/forge.js";
import type { Message } from "../../../src/ports/model.js";
import { git, type LocalJob } from "./local-job.js";

/** Commit subjects on `cfa/<n>` since the default branch, oldest first. */
export function commitSubjects(job: LocalJob, n = 1): string[] {
  const out = git(job.repoDir, "log", "--reverse", "--format=%s", `main..cfa/${n}`);
  return out === "" ? [] : out.split("\n");
}

/**
 * Commit subjects of the job branch's own line (first parents), oldest first: a merged task
 * branch's commits are not the job branch's.
 */
export function firstParentSubjects(job: LocalJob, n = 1): string[] {
  const out = git(
    job.repoDir,
    "log",
    "--reverse",
    "--first-parent",
    "--format=%s",
    `main..cfa/${n}`,
  );
  return out === "" ? [] : out.split("\n");
}

/** Subjects of the per-turn commits (`cfa #N: <state> <agent@thread> turn K[: OUTCOME]`). */
export function turnCommits(job: LocalJob, n = 1): string[] {
  return firstParentSubjects(job, n).filter((s) => / turn \d+(: [A-Z_]+)?$/.test(s));
}

/** Task branches of job `n` (`cfa/<n>-<task>`), by name. */
export function taskBranches(job: LocalJob, n = 1): string[] {
  const out = git(job.repoDir, "branch", "--list", "--format=%(refname:short)", `cfa/${n}-*`);
  return out === "" ? [] : out.split("\n");
}

export function fileOnBranch(job: LocalJob, path: string, n = 1): string | null {
  try {
    return git(job.repoDir, "show", `cfa/${n}:${path}`);
  } catch {
    return null;
  }
}

export interface BotComment extends Comment {
  block: HiddenBlock;
}

export async function botComments(job: LocalJob, n = 1): Promise<BotComment[]> {
  const out: BotComment[] = [];
  for (const c of await job.forge.listComments(n)) {
    if (c.author.login !== job.forge.botLogin) continue;
    const block = readHiddenBlock(c.body);
    if (block) out.push({ ...c, block });
  }
  return out;
}

export async function commentsOfKind(job: LocalJob, kind: string, n = 1): Promise<BotComment[]> {
  return (await botComments(job, n)).filter((c) => c.block.kind === kind);
}

/** The committed bus log, folded (throws if it does not fold). */
export function foldedBus(job: LocalJob, n = 1) {
  const text = fileOnBranch(job, jobPaths(n).bus, n) ?? "";
  return { text, folded: fold(`${text}\n`) };
}

/** An instance's committed transcript messages (`agent@thread`). */
export function transcript(job: LocalJob, key: string, n = 1): Message[] {
  const file = `${jobPaths(n).instancesDir}/${key.replace(/:/g, "~")}.jsonl`;
  return loadTranscript(`${fileOnBranch(job, file, n) ?? ""}\n`).messages;
}

/** The user-side text of a transcript: every text block and tool result, in order. */
export function userTexts(messages: Message[]): string[] {
  return messages
    .filter((m) => m.role === "user")
    .flatMap((m) => m.content.map((b) => (b.type === "text" ? b.text : b.content)));
}

export function state(job: LocalJob, n = 1) {
  const text = fileOnBranch(job, jobPaths(n).state, n);
  if (text === null) throw new Error(`test: job ${n} has no state.json on cfa/${n}`);
  return JSON.parse(text) as {
    state: string;
    backtracks: number;
    failures: number;
    turns: number;
    costUsd: number;
    entry: number;
    history: { from: string; action: string; to: string; by: string; reason: string }[];
    engine: Record<string, unknown>;
  };
}

/** The job's setup record: each run of the setup, and the failure it waits on. */
export interface SetupRecord {
  runs: {
    workspace: string;
    ok: boolean;
    commands: { command: string; exitCode: number | null }[];
  }[];
  failed?: {
    workspace: string;
    command: string;
    exitCode: number | null;
    tail: string;
    retry?: true;
  };
}

export function setupOf(job: LocalJob, n = 1): SetupRecord | undefined {
  return (state(job, n).engine as { setup?: SetupRecord }).setup;
}
