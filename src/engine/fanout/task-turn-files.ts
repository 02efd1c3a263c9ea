// A task branch's turn records as files: the lead's run reads them from the
// commit it fetched, a task run writes them. Everything on a task branch was written by a
// runner an agent's commands ran on, so the reader trusts nothing of the tree: only regular
// files under `.cfa/turns/` named as taskTurnPath names them, each at most MAX_RECORD_BYTES,
// at most MAX_RECORD_FILES of them, and whose content names the same (seq, epoch) as its
// file — one file per record key, so no key is read twice. Anything else is refused by path
// with the reason, for the lead to say once; the fold (fold-task-records.ts) checks the rest.

import {
  parseTaskTurnRecord,
  taskTurnPath,
  TASK_TRANSCRIPT_PATH,
  TASK_TURNS_DIR,
  type TaskTurnRecord,
} from "../../records/task-turn-record.js";
import type { RunGit } from "./leased-refs.js";

/** 50 sends of 100 000 characters (the record's schema), as UTF-8, and the rest. */
export const MAX_RECORD_BYTES = 21 * 1024 * 1024;
/** A run writes one file per turn; a branch with more is not a run's doing. */
export const MAX_RECORD_FILES = 10_000;

export interface TaskTurnFiles {
  records: TaskTurnRecord[];
  /** Files that are not records, with why: each one said once by the lead. */
  refused: { path: string; why: string }[];
}

const NAME = /^[0-9]{6}-e[0-9]{1,4}\.json$/;

export async function readTaskTurnRecords(git: RunGit, commit: string): Promise<TaskTurnFiles> {
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error("cfa/engine: a commit's full id is needed");
  // -l: each blob's size, before anything of it is read; -z: any byte in a name is safe.
  const listing = await git([
    "ls-tree",
    "-l",
    "-z",
    "--full-tree",
    commit,
    "--",
    `${TASK_TURNS_DIR}/`,
  ]);
  const entries = listing.split("\0").filter((e) => e !== "");
  const refused: TaskTurnFiles["refused"] = [];
  const records: TaskTurnRecord[] = [];
  if (entries.length > MAX_RECORD_FILES) {
    refused.push({ path: TASK_TURNS_DIR, why: `more than ${MAX_RECORD_FILES} files` });
    return { records, refused };
  }
  for (const entry of entries) {
    const tab = entry.indexOf("\t");
    const [mode = "", type = "", sha = "", size = ""] = entry.slice(0, tab).trim().split(/\s+/);
    const path = entry.slice(tab + 1);
    const name = path.slice(TASK_TURNS_DIR.length + 1);
    const refuse = (why: string) => refused.push({ path: printable(path), why });
    // The worker's transcript, carried for its next run: not a record, nothing to fold.
    if (path === TASK_TRANSCRIPT_PATH && type === "blob") continue;
    if (type !== "blob" || (mode !== "100644" && mode !== "100755")) {
      refuse("not a regular file");
      continue;
    }
    if (!NAME.test(name)) {
      refuse("not a turn record's name");
      continue;
    }
    if (Number(size) > MAX_RECORD_BYTES) {
      refuse(`larger than ${MAX_RECORD_BYTES} bytes`);
      continue;
    }
    const parsed = parseTaskTurnRecord(await git(["cat-file", "blob", sha]));
    if (!parsed.ok) {
      refuse(`not a turn record: ${parsed.why}`);
      continue;
    }
    if (taskTurnPath(parsed.record.seq, parsed.record.epoch) !== path) {
      refuse("its name is not its turn and epoch");
      continue;
    }
    records.push(parsed.record);
  }
  return { records, refused };
}

/** A hostile name, as the lead may print it: no control characters, and short. */
function printable(path: string): string {
  // eslint-disable-next-line no-control-regex
  return path.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, 200);
}
