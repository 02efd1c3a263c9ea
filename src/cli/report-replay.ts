// After a replay: the job's state and, when the replay did not follow the recording
// exactly, what diverged (divergence is reported, never hidden:
// docs/protocol.md#recorded-decisions).

import type { CliIo } from "./cli-io.js";
import { readJobRecords } from "./job-records.js";
import { readJobView, type JobView } from "./job-view.js";
import { nextStep } from "./next-step.js";
import { repoArg } from "./resolve-repo.js";
import type { ReplayRun } from "./run-replay.js";

/** Prints the outcome; returns the exit code (1 when the replay diverged or the job failed). */
export async function reportReplay(
  io: CliIo,
  run: ReplayRun,
  cli: string,
  /** `nextStep: false`: no next-step lines (the demo's removed repository takes none). */
  options: { nextStep?: boolean } = {},
): Promise<{ code: number; view: JobView | null }> {
  const texts = run.job > 0 ? await readJobRecords(run.repoDir, run.job) : null;
  const view = texts ? readJobView(texts) : null;
  // A replay's repository is never the current folder: every suggestion names it.
  const next = { cli, repoArg: repoArg(run.repoDir, run.repoDir), repoDir: run.repoDir };
  if (view && options.nextStep !== false) io.stdout.write(`\n${nextStep(view, next).join("\n")}\n`);
  let code = view?.job?.state === "FAILURE" ? 1 : 0;
  if (run.stopped) {
    io.stderr.write("cfa: stopped before the end of the recording.\n");
    return { code: 130, view };
  }
  if (run.until !== undefined) {
    if (run.until.reached) return { code, view }; // stopped where asked: what is left is the person's
    io.stderr.write(
      `cfa: the replay never waited at gate ${run.until.gate}${run.until.gates.length > 0 ? ` (its gates: ${run.until.gates.join(", ")})` : " (it reached no gate)"}; \`${cli} watch ${run.job} --repo ${run.repoDir}\` shows them.\n`,
    );
    return { code: 1, view };
  }
  if (run.divergence !== null) {
    io.stderr.write(`cfa: the replay diverged from the recording: ${run.divergence.message}\n`);
    code = 1;
  }
  const unplayed = Object.entries(run.unplayed);
  if (unplayed.length > 0 && run.divergence === null) {
    io.stderr.write(
      `cfa: the replay diverged: recorded responses were never asked for: ${unplayed
        .map(([instance, left]) => `${instance} (${left})`)
        .join(", ")}\n`,
    );
    code = 1;
  }
  return { code, view };
}
