// The repository's instructions as a wake gives them to every agent: read once per wake from
// the default branch's committed blobs in the engine's own repository (never a worktree an
// agent writes, never the job branch), so what one agent edits never instructs the next
// (src/agents/instructions). Links and submodules are not followed; a file past 1 MiB is not
// read; an identical blob is read once (CLAUDE.md kept as a copy of AGENTS.md). The tree is
// listed as setup-network.ts lists it: nested AGENTS.md files are found only in a listing,
// which Forge.readDefaultBranchFile (one named path, an API call each on GitHub) cannot give.

import {
  NO_INSTRUCTIONS,
  buildInstructions,
  selectInstructionPaths,
  type InstructionFile,
  type RepoInstructions,
} from "../../agents/instructions/repo-instructions.js";
import { gitClient } from "../../git/git-client.js";
import { looseBranchIdAt } from "../../git/head-from-files.js";
import type { JobRecords, Reporter } from "../job/session.js";

const MAX_BLOB_BYTES = 1024 * 1024;

const read = new WeakMap<JobRecords, Promise<RepoInstructions>>();

/**
 * The last instructions read, by the commit they were read from: a commit's tree and blobs
 * never change, so a later wake of this process whose default branch still points there (the
 * CLI's wakes between a person's replies) reads them again from none of git's processes.
 */
let last: { key: string; read: Promise<RepoInstructions> } | null = null;

export function repoInstructions(s: JobRecords & Reporter): Promise<RepoInstructions> {
  let known = read.get(s);
  if (known === undefined) {
    // Instructions help; a repository whose files cannot be read (a default branch the clone
    // lacks, an unreachable forge) still runs, without them, and says so in the log.
    known = readInstructions(s).catch((error: unknown) => {
      s.deps.logger.warn(
        `cfa/engine: the repository's instructions were not read: ${String(error)}`,
      );
      return NO_INSTRUCTIONS;
    });
    read.set(s, known);
  }
  return known;
}

interface TreeEntry {
  mode: string;
  object: string;
  size: number;
}

async function readInstructions(s: JobRecords & Reporter): Promise<RepoInstructions> {
  const configured = s.config.instructions;
  if (configured.length === 0) return NO_INSTRUCTIONS;
  const branch = await s.deps.forge.defaultBranch();
  // The branch's commit from its loose ref (head-from-files.ts; the repository the engine was
  // pointed at, which no agent writes); anything else is asked of git, as it always was.
  const commit = await looseBranchIdAt(s.deps.repoDir, `refs/heads/${branch}`);
  if (commit === null) return readAt(s, branch, [`refs/heads/${branch}`]);
  const key = [s.deps.repoDir, commit, branch, ...configured].join("\0");
  if (last?.key !== key) {
    const reading = readAt(s, branch, [commit]);
    reading.catch(() => {
      if (last?.read === reading) last = null;
    });
    last = { key, read: reading };
  }
  return last.read;
}

async function readAt(
  s: JobRecords & Reporter,
  branch: string,
  refs: string[],
): Promise<RepoInstructions> {
  const configured = s.config.instructions;
  const git = gitClient(s.deps.repoDir);
  let entries: Map<string, TreeEntry> | null = null;
  for (const ref of [...refs, `refs/remotes/origin/${branch}`]) {
    const listed = await git.run(["ls-tree", "-r", "-l", "-z", "--full-tree", ref]);
    if (listed.code === 0) {
      entries = parseTree(listed.stdout.toString("utf8"));
      break;
    }
  }
  if (entries === null) return NO_INSTRUCTIONS;
  const { root, nested } = selectInstructionPaths([...entries.keys()], configured);
  const seen = new Set<string>();
  const load = async (paths: string[]): Promise<InstructionFile[]> => {
    const out: InstructionFile[] = [];
    for (const path of paths) {
      const entry = entries.get(path);
      // A regular file's blob only: a link's blob is a path, a submodule's a commit.
      if (entry === undefined || !/^100(644|755)$/.test(entry.mode)) continue;
      if (entry.size > MAX_BLOB_BYTES || seen.has(entry.object)) continue;
      seen.add(entry.object);
      const blob = await git.run(["cat-file", "blob", entry.object]);
      if (blob.code !== 0) continue;
      const text = blob.stdout.toString("utf8");
      if (text.trim() !== "") out.push({ path, text });
    }
    return out;
  };
  return buildInstructions(await load(root), await load(nested), { branch });
}

/** `ls-tree -r -l -z` lines: "<mode> <type> <object> <size>\t<path>". */
function parseTree(text: string): Map<string, TreeEntry> {
  const out = new Map<string, TreeEntry>();
  for (const line of text.split("\0")) {
    const tab = line.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, object, size] = line.slice(0, tab).split(/\s+/);
    if (type !== "blob" || mode === undefined || object === undefined) continue;
    out.set(line.slice(tab + 1), { mode, object, size: Number(size) });
  }
  return out;
}
