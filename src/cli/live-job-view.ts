// The live log's view of a job's records, kept between the engine's commits (so that
// the demo stays under 5 s). A commit appends to bus.jsonl and the transcripts, so only the whole
// lines past what was parsed last time are parsed; a file that did not grow by appending
// (rewritten, truncated, another job's area) is parsed whole again. state.json is parsed
// again only when its text changed, the config once. What it builds is what renderWatch
// reads, the same as readJobView builds from the same files (live-job-view.test.ts).

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig, parseConfig } from "../config/index.js";
import type { TranscriptEntry } from "../agents/transcript/index.js";
import type { BusLine } from "../protocol/bus/index.js";
import { parseJobRecord, type JobRecord } from "../protocol/job-record.js";
import { engineState, type EngineState } from "../records/engine-state.js";
import { JOBS_DIR, jobPaths, newestRoundIn } from "../records/job-paths.js";
import {
  instanceOfEntries,
  parseBusLines,
  transcriptEntries,
  type InstanceView,
} from "./job-view.js";
import type { WatchView } from "./watch-render.js";

export interface LiveJobView {
  /** The view of job `job`'s records as the files in `worktree` now hold them. */
  read(job: number, worktree: string): WatchView;
}

/** Whole lines parsed so far: `text` is the file's text up to its last newline. */
interface Parsed<T> {
  text: string;
  items: T[];
}

interface JobCache {
  worktree: string;
  state: { text: string | null; job: JobRecord | null; engine: EngineState | null };
  bus: Parsed<BusLine>;
  transcripts: Map<string, Parsed<TranscriptEntry>>;
}

/** `config` is `.github/cfa.yml`'s text as `cfa watch` reads it, or null (createRecordsLog). */
export function createLiveJobView(config: string | null): LiveJobView {
  const parsedConfig = parseConfig(config);
  const cfaConfig = parsedConfig.ok ? parsedConfig.config : defaultConfig();
  const caches = new Map<string, JobCache>();
  return {
    read(job, worktree) {
      const round = newestRoundInTree(worktree, job);
      const paths = jobPaths(job, round);
      const key = `${job}.${round}`;
      let cache = caches.get(key);
      if (cache?.worktree !== worktree) {
        cache = {
          worktree,
          state: { text: null, job: null, engine: null },
          bus: { text: "", items: [] },
          transcripts: new Map(),
        };
        caches.set(key, cache);
      }
      const read = (path: string): string | null => {
        try {
          return readFileSync(join(worktree, path), "utf8");
        } catch {
          return null; // not written yet
        }
      };

      const stateText = read(paths.state);
      if (stateText !== cache.state.text) cache.state = parseState(stateText);
      // parseBusLines skips a torn last line: only whole lines are ever parsed here too.
      cache.bus = appended(cache.bus, read(paths.bus) ?? "", (text) => parseBusLines(text));

      const transcripts = new Map<string, Parsed<TranscriptEntry>>();
      const instances: InstanceView[] = [];
      for (const name of listDir(join(worktree, paths.instancesDir))) {
        if (!name.endsWith(".jsonl")) continue;
        const base = name.slice(0, -".jsonl".length);
        const text = read(`${paths.instancesDir}/${name}`) ?? "";
        const parsed = appended(cache.transcripts.get(base), text, transcriptEntries);
        transcripts.set(base, parsed);
        // readJobView reads a last line without its newline too, when it parses.
        const tail =
          text.length > parsed.text.length ? transcriptEntries(text.slice(parsed.text.length)) : [];
        const entries = tail.length > 0 ? [...parsed.items, ...tail] : parsed.items;
        const instance = instanceOfEntries(base, entries, []);
        if (instance) instances.push(instance);
      }
      cache.transcripts = transcripts;
      instances.sort((a, b) => a.key.localeCompare(b.key));

      return {
        n: job,
        round,
        job: cache.state.job,
        engine: cache.state.engine,
        lines: cache.bus.items,
        instances,
        config: cfaConfig,
      };
    },
  };
}

/** `text`'s whole lines parsed, reusing `before` when `text` only appended to it. */
function appended<T>(
  before: Parsed<T> | undefined,
  text: string,
  parse: (wholeLines: string) => T[],
): Parsed<T> {
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  if (before !== undefined && whole.startsWith(before.text)) {
    if (whole.length === before.text.length) return before;
    return { text: whole, items: [...before.items, ...parse(whole.slice(before.text.length))] };
  }
  return { text: whole, items: parse(whole) };
}

/** As readJobView reads state.json: a record that parses but is not the engine's keeps `job`. */
function parseState(text: string | null): JobCache["state"] {
  if (text === null) return { text, job: null, engine: null };
  let job: JobRecord | null = null;
  try {
    job = parseJobRecord(text);
    return { text, job, engine: engineState(job) };
  } catch {
    return { text, job, engine: null };
  }
}

/** The newest round of `job` a worktree's files hold: a follow-up's records once it began. */
export function newestRoundInTree(worktree: string, job: number): number {
  return newestRoundIn(
    listDir(join(worktree, JOBS_DIR)).map((name) => `${JOBS_DIR}/${name}/state.json`),
    job,
  );
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
