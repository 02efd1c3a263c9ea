// `cfa watch`'s loop: the job's log rebuilt from its records, then, with --follow, new lines
// as the job's branch moves, until the job ends (commands/watch.ts parses; this runs).

import { setTimeout as sleep } from "node:timers/promises";
import { isTerminalState } from "../protocol/fsm.js";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { cliName } from "./command.js";
import { gitTry } from "./git-text.js";
import { jobRef, readJobRecords } from "./job-records.js";
import { readJobView } from "./job-view.js";
import { createLiveLog } from "./live-log.js";
import { nextStep } from "./next-step.js";
import { renderWatch } from "./watch-render.js";

export async function watchJob(
  io: CliIo,
  o: {
    n: number;
    repoDir: string;
    verbose: boolean;
    follow: boolean;
    intervalMs: number;
    repoArg: string;
  },
): Promise<number> {
  const log = createLiveLog({ verbose: o.verbose });
  const print = (lines: string[]) => {
    for (const l of lines) io.stdout.write(`${l}\n`);
  };
  let printedSeq = -1;
  let seenHead: string | null = null;
  for (;;) {
    const texts = await readJobRecords(o.repoDir, o.n);
    if (texts === null)
      throw new CliError(`there is no job #${o.n} in ${o.repoDir} (no branch cfa/${o.n}).`);
    seenHead = texts.head;
    const view = readJobView(texts);
    const done = view.job !== null && isTerminalState(view.job.state);
    const fresh = renderWatch(view).filter((line) => line.seq > printedSeq);
    // Following a live job, a line later records will change waits for them, with all after
    // it (as in the live log: live-records-log.ts), so each line is printed once, as final.
    const stop = o.follow && !done ? fresh.findIndex((line) => line.unsettled === true) : -1;
    for (const line of stop < 0 ? fresh : fresh.slice(0, stop)) {
      print(log.push(line));
      printedSeq = line.seq;
    }
    print(log.end());
    if (stop < 0) printedSeq = view.lines.at(-1)?.seq ?? printedSeq;
    if (!o.follow || done) {
      for (const p of view.problems) io.stderr.write(`cfa: ${p}\n`);
      io.stdout.write(
        `\n${nextStep(view, {
          cli: cliName(io.env),
          repoArg: o.repoArg,
          ...(o.repoArg ? { repoDir: o.repoDir } : {}),
        }).join("\n")}\n`,
      );
      return 0;
    }
    // Follow: wait for the branch to move (a new commit is a new turn or step).
    for (;;) {
      try {
        await sleep(o.intervalMs, undefined, io.signal ? { signal: io.signal } : {});
      } catch {
        return 0; // stopped from outside
      }
      const ref = await jobRef(o.repoDir, o.n);
      const head = ref ? (await gitTry(o.repoDir, ["rev-parse", ref]))?.trim() : null;
      if (head && head !== seenHead) break;
    }
  }
}
