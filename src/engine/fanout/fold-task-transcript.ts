// The lead's copy of a task run's worker transcript into the job branch, at
// the fold that delivered the worker's turns: read from the task branch at the commit the last
// delivered turn's record names (the run commits the transcript before that record), checked
// by takeTaskTranscript against the messages the delivery started those turns on, and written to the worker's own record on the job branch — the path
// is the lead's (`paths.instance` of the task's worker), nothing on the branch names it. The
// wake's commit after the fold carries it with the bus events of the same turns. A refusal is
// said once (its key kept in the task's ledger) and leaves the job branch's copy as it was.
//
// A refusal blocks every later take of that worker's transcript, and that is kept on purpose:
// the task's next run resumes the worker's conversation from the task branch's copy at the last
// folded record's head (folded-transcript.ts), refused turns included — the record was folded,
// only its transcript was not — so each later copy continues the refused turns and is refused
// in turn (one more reason at most, each said once). Resuming after a refusal — taking only
// the turns after the refused ones, behind a marker the lead writes — was weighed and left:
// - every later turn was generated with the refused turns in its context (a planted
//   instruction, a secret in them), so the job branch would show turns answering things it
//   does not hold: a record of the worker's that misstates what the worker saw;
// - the job branch's copy is also the worker's conversation when the task comes back to the
//   lead's run (a done task adopted there, its close or more mail, `single`): a marker turn
//   would be an exchange the model never had, and the transcript has no entry for turns left
//   out, so it would be a fabricated user/assistant pair;
// - making the next run resume from the lead's accepted copy instead would hide from the
//   worker turns whose code is on its branch.
// What the refusal costs is the view of that worker's later turns in `cfa show`/`inspect`; its
// records still fold (sends, cost, timing), so the task goes on and ends as the run left it.

import { gitClient } from "../../git/git-client.js";
import type { Address } from "../../protocol/address.js";
import { holdsKnownSecret } from "../../secrets/index.js";
import { TASK_TRANSCRIPT_PATH } from "../../records/task-turn-record.js";
import {
  applyChange,
  progress,
  type JobRecords,
  type JobTree,
  type Reporter,
} from "../job/session.js";
import { readText, writeText } from "../tree/files.js";
import {
  oversized,
  takeTaskTranscript,
  TASK_TRANSCRIPT_MAX_BYTES,
  transcriptRefusalKey,
  type TranscriptTake,
  type TurnOpening,
} from "./task-transcript-take.js";

/** True when the job branch's record of the task's worker now holds the run's transcript. */
export async function foldTaskTranscript(
  s: JobRecords & Reporter & JobTree,
  task: string,
  at: string,
  /** The texts of the messages the delivered turns opened on, in order (foldTaskRuns). */
  opens: readonly TurnOpening[],
): Promise<boolean> {
  const meta = s.engine.tasks[task];
  if (meta === undefined) return false;
  const worker: Address = { agent: "worker", thread: meta.thread };
  const verdict = await readAndTake(s, meta.branch, at, s.paths.instance(worker), opens);
  if (verdict === null || verdict.kind === "nothing-new") return false;
  if (verdict.kind === "take") {
    await writeText(s.jobWs.root, s.paths.instance(worker), verdict.text);
    return true;
  }
  const ledger = s.engine.fanout?.tasks[task];
  const key = transcriptRefusalKey(verdict.refusal);
  if (ledger === undefined || ledger.refused.includes(key)) return false;
  progress(s, "EXECUTE", "REFUSED", `task ${task}'s run: ${verdict.why}`);
  applyChange(s, {
    type: "task-run-recorded",
    id: task,
    ledger: { ...ledger, refused: [...ledger.refused, key] },
  });
  return false;
}

/** The transcript at `at` judged, or null when there is none to take. */
async function readAndTake(
  s: Reporter & JobTree,
  branch: string,
  at: string,
  file: string,
  opens: readonly TurnOpening[],
): Promise<TranscriptTake | null> {
  const repo = gitClient(s.deps.repoDir);
  const tip = await repo.run(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]);
  if (tip.code !== 0) return null;
  // The record's head is hostile input: only a commit on the branch the run pushed is read.
  const onBranch = await repo.run([
    "merge-base",
    "--is-ancestor",
    at,
    tip.stdout.toString().trim(),
  ]);
  if (onBranch.code !== 0) return null;
  // "<mode> <type> <object> <size>\t<path>": its size before a byte of it is read.
  const entry = (
    await repo.raw(["ls-tree", "-l", "-z", "--full-tree", at, "--", TASK_TRANSCRIPT_PATH])
  )
    .split("\0")
    .find((e) => e.endsWith(`\t${TASK_TRANSCRIPT_PATH}`));
  if (entry === undefined) return null;
  const [mode = "", type = "", object = "", size = ""] = entry.split("\t")[0]!.trim().split(/\s+/);
  // A run that wrote no transcript, or a link or a folder in its place, has none to take.
  if (type !== "blob" || (mode !== "100644" && mode !== "100755")) return null;
  const bytes = Number(size);
  if (!Number.isSafeInteger(bytes) || bytes > TASK_TRANSCRIPT_MAX_BYTES) return oversized(bytes);
  const text = (await repo.raw(["cat-file", "blob", object])).toString();
  const current = (await readText(s.jobWs.root, file)) ?? "";
  return takeTaskTranscript(text, current, holdsKnownSecret, opens);
}
