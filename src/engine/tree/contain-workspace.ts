// What the engine checks after every command an agent runs (else its own git could run the
// agent's code, its reads follow the agent's links, its commits fail): a command can write
// anything in its workspace, so before the engine's own git or file access touches it again —
//
// - the worktree's `.git` file is the one git wrote (a rewritten `gitdir:` would point the
//   engine's git at a repository the agent made);
// - no repository is nested anywhere below the root (removed; the agent's files stay);
// - nothing lies past the tree's depth and length bounds (removed: git fails on such paths,
//   and every later wake would too; agents/boundary/tree-limits.ts);
// - a file over the size limit is named: it stays, but no commit takes it (GitHub would
//   refuse every later push);
// - `.cfa/` holds what the engine wrote or committed: a record the command created, changed,
//   linked or removed is put back, and if it is one of this job's own records the turn fails;
//   the lead's own artifact may change, but a link there is refused (put back).
//
// Each finding becomes a line of the command's result, so the agent knows what happened.

import { isProtected } from "../../agents/boundary/is-protected.js";
import { outOfBoundsNote } from "../../agents/boundary/tree-limits.js";
import { sweepTree } from "../../git/nested-repos.js";
import { oversizedNote } from "../../git/oversized-files.js";
import { filesToAdd, treeStatus } from "../../git/tree-status.js";
import { restoreDotGit } from "../../git/worktree-git-dir.js";
import type { JobRepo } from "./job-repo.js";
import { RECORDS_DIR } from "./record-ledger.js";
import { settleRecords } from "./settle-records.js";

export interface Containment {
  /** One line per finding, for the agent. */
  notes: string[];
  /** This job's own records the command changed: the turn fails. */
  tampered: string[];
}

export interface ContainOptions {
  /** The workspace's git dir (Workspace.gitDir), to restore its `.git` file. */
  gitDir?: string;
  /** The agent's protected prefixes (its file tools' rule): what a command may not change. */
  protect: readonly string[];
  /** Whether a path is one of this job's own records in this workspace. */
  ownRecord: (file: string) => boolean;
}

export async function containWorkspace(
  repo: JobRepo,
  options: ContainOptions,
): Promise<Containment> {
  const notes: string[] = [];
  if (options.gitDir !== undefined && (await restoreDotGit(repo.root, options.gitDir))) {
    notes.push(
      "cfa: your command changed .git, the worktree's pointer to its repository; it was put back (the engine's git never follows it).",
    );
  }
  // One `git status` answers what the sweep and the size check would each ask git apart
  // (`ls-files --ignored --directory`, `ls-files --others --modified`): the folders git ignores
  // as a whole, and the files a commit would take. Dependency folders are left out of it as
  // out of every commit (tree-status.ts, stage-tree.ts). It is taken before the sweep: when
  // the sweep removes anything (a nested repository hid the files around it as one entry), git
  // is asked again for the files.
  const look = await treeStatus(repo.git, RECORDS_DIR, { optionalLocks: false });
  const swept = await sweepTree(repo.root, repo.git, look?.ignoredFolders);
  for (const removed of swept.repos) {
    notes.push(
      `cfa: removed ${removed}: repositories (a nested .git, or a folder git reads as a bare repository: HEAD with objects, refs, commondir or config) are not allowed in a workspace; the files around it stay and are committed as plain files.`,
    );
  }
  for (const { path, why } of swept.outOfBounds) notes.push(outOfBoundsNote(path, why));
  const unchanged = look !== null && swept.repos.length + swept.outOfBounds.length === 0;
  const listed = unchanged ? filesToAdd(look, RECORDS_DIR) : undefined;
  for (const file of await repo.oversized(undefined, listed)) {
    notes.push(oversizedNote(file, repo.maxFileBytes));
  }
  const ledger = repo.records;
  const settled = await ledger.exclusive(async () => {
    await ledger.ready();
    return settleRecords(repo.root, ledger, {
      inScope: () => true,
      writable: (file) => !isProtected(file, options.protect),
    });
  });
  for (const file of settled.refusedArtifacts) {
    notes.push(
      `cfa: refused ${file}: it is not a regular file (a symbolic link, say); write it as a regular file. It was put back as last committed.`,
    );
  }
  const changed = settled.repaired;
  const tampered = changed.filter((file) => options.ownRecord(file));
  if (changed.length > 0) {
    notes.push(
      `cfa: your command changed ${changed.join(", ")} under .cfa/, which only the engine writes; put back.` +
        (tampered.length > 0 ? " Changing the job's own records fails this turn." : ""),
    );
  }
  return { notes, tampered };
}

/** Before the first command in a workspace the engine has not checked yet (JobRepo.prepare). */
export async function prepareWorkspace(repo: JobRepo): Promise<void> {
  await repo.prepare();
}
