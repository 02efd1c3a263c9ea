// The live log of a command that runs a job, rendered from the job's records as they are
// committed: the same renderer as `cfa watch` (watch-render.ts) over the same
// bus and state, so both say the same lines, in record order, each with its record's own
// time. The records are read from the job worktree's files right after the engine commits
// them (what the commit holds), not through git: one read per commit, no child process,
// and only the lines the commit appended are parsed (live-job-view.ts).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProgressLine } from "../engine/index.js";
import { jobPaths } from "../records/job-paths.js";
import type { JobRecordTexts } from "./job-records.js";
import { createLiveJobView, newestRoundInTree } from "./live-job-view.js";
import type { LiveLog } from "./live-log.js";
import { renderWatch, type WatchLine } from "./watch-render.js";

export interface RecordsLog {
  /** EngineDeps.recorded: lines to print for the records now in `worktree`. */
  recorded(job: number, worktree: string, when: "opened" | "committed"): string[];
  /** At the command's end: the lines held back as unsettled, as the records last said them. */
  end(): string[];
}

/**
 * `config` is `.github/cfa.yml` as `cfa watch` reads it (the default branch's), or null.
 * On "opened" the records already on the branch are taken as said (an earlier command
 * printed them; `cfa watch` shows them); each commit then prints the lines past them, up to
 * the first unsettled one (watch-render.ts), which waits, with all after it, for a commit
 * that settles it — so a line reads as `cfa watch` will read it, in the same order.
 */
export function createRecordsLog(log: LiveLog, config: string | null): RecordsLog {
  // Per round of a job (`N.k`): a follow-up's records count their lines from the start.
  const said = new Map<string, number>();
  const held = new Map<string, WatchLine[]>();
  // Only what each commit appended is parsed (live-job-view.ts), not the whole job again.
  const views = createLiveJobView(config);
  return {
    recorded(job, worktree, when) {
      const view = views.read(job, worktree);
      const key = `${job}.${view.round ?? 1}`;
      const from = said.get(key) ?? -1;
      if (when === "opened") {
        said.set(key, Math.max(from, view.lines.at(-1)?.seq ?? -1));
        held.delete(key);
        return [];
      }
      // A round the command has not said anything of yet, whose lines are all new: the lines
      // of the round before it that waited on a settling record are said first, as they are.
      const before = [...held.entries()].filter(([k]) => k !== key && k.startsWith(`${job}.`));
      const earlier = before.flatMap(([k, rest]) => {
        held.delete(k);
        return rest.flatMap((line) => log.push(line));
      });
      const fresh = renderWatch(view).filter((line) => line.seq > from);
      const stop = fresh.findIndex((line) => line.unsettled === true);
      const now = stop < 0 ? fresh : fresh.slice(0, stop);
      held.set(key, stop < 0 ? [] : fresh.slice(stop));
      if (now.length > 0) said.set(key, now.at(-1)!.seq);
      return [...earlier, ...now.flatMap((line) => log.push(line))];
    },
    end() {
      const lines = [...held.values()].flat().flatMap((line) => log.push(line));
      for (const [job, rest] of held) {
        if (rest.length > 0) said.set(job, rest.at(-1)!.seq);
      }
      held.clear();
      return lines;
    },
  };
}

/** A job's records as files in its worktree, in the shape readJobRecords gives from git. */
export function readRecordsDir(
  job: number,
  worktree: string,
  config: string | null,
): JobRecordTexts {
  const round = newestRoundInTree(worktree, job);
  const paths = jobPaths(job, round);
  const read = (path: string): string | null => {
    try {
      return readFileSync(join(worktree, path), "utf8");
    } catch {
      return null; // not written yet
    }
  };
  const transcripts: Record<string, string> = {};
  const files: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(join(worktree, paths.instancesDir));
  } catch {
    names = [];
  }
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    files.push(`${paths.instancesDir}/${name}`);
    transcripts[name.slice(0, -".jsonl".length)] = read(`${paths.instancesDir}/${name}`) ?? "";
  }
  return {
    job,
    round,
    rounds: [round],
    ref: paths.branch,
    head: "",
    state: read(paths.state),
    bus: read(paths.bus) ?? "",
    transcripts,
    files,
    config,
  };
}

/**
 * The progress lines the records do not hold (a refused credential, a full disk, a push
 * note): news of this run only, printed as they come. Every other progress line is said by
 * the records, once committed.
 */
export function isRunNote(line: ProgressLine, recordedEvents: ReadonlySet<string>): boolean {
  return !recordedEvents.has(line.event);
}
