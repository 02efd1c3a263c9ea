// The live, human-readable log (docs/protocol.md#run-visibility): one line per notable
// event, `[#1] 12:30:01 INTENT        START     intent-lead sparked on state:intent:1`.
// Normal mode shows the job-level events; --verbose adds the per-task lines. Pure: the
// callers write the strings.

import { oneLine as cutLine } from "../comments/one-line.js";
import type { ProgressLine } from "../engine/index.js";

export interface LiveLogOptions {
  verbose: boolean;
  /** IANA time zone for the clock column; default: the machine's. */
  timeZone?: string;
}

const WHO_WIDTH = 13;
const EVENT_WIDTH = 9;
const DETAIL_MAX = 200;

/** One line of the log, whatever its verbosity. */
export function formatLogLine(line: ProgressLine, options: { timeZone?: string } = {}): string {
  const who = shortWho(line.who).padEnd(WHO_WIDTH);
  const event = line.event.padEnd(EVENT_WIDTH);
  return `[#${line.job}] ${clockTime(line.at, options.timeZone)} ${who} ${event} ${oneLine(line.detail)}`.trimEnd();
}

/**
 * `agent@thread` keys are long; the log names instances the way a person would: the lead by
 * its role, a task's worker and verifier by the task, a proxy by its question.
 */
export function shortWho(who: string): string {
  const at = who.indexOf("@");
  if (at <= 0) return who;
  const agent = who.slice(0, at);
  const thread = who.slice(at + 1);
  const [kind = "", id = ""] = splitOnce(thread, ":");
  switch (kind) {
    case "dispatch":
    case "escalation":
      return `${agent}:${id}`;
    case "verify":
      return `${agent}:${id.replace(/-\d+$/, "")}`;
    case "state": {
      const entry = Number(thread.split(":")[2] ?? "1");
      return entry > 1 ? `${agent}#${entry}` : agent;
    }
    default:
      return who;
  }
}

export function clockTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "--:--:--";
  return clockFormat(timeZone).format(date);
}

const formats = new Map<string, Intl.DateTimeFormat>();
function clockFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = formats.get(timeZone ?? "");
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(timeZone ?? "", format);
  }
  return format;
}

/** One line, at most `max` characters, a cut ending in "…". */
export function oneLine(text: string, max = DETAIL_MAX): string {
  return cutLine(text, max);
}

function splitOnce(text: string, sep: string): [string, string] {
  const i = text.indexOf(sep);
  return i < 0 ? [text, ""] : [text.slice(0, i), text.slice(i + sep.length)];
}

export interface LiveLog {
  /** The lines to print now for `line` (none, one, or a held summary and this one). */
  push(line: ProgressLine): string[];
  /** What is still held back, at the end of the run. */
  end(): string[];
}

/**
 * The log as a stream. In normal mode per-task lines are hidden, but a burst of dispatches
 * is worth one line ("5 workers spawned in parallel"): consecutive DISPATCH lines
 * are held and printed as one summary when the next shown line arrives.
 */
export function createLiveLog(options: LiveLogOptions): LiveLog {
  let held: ProgressLine[] = [];
  const format = (line: ProgressLine) => formatLogLine(line, options);

  const release = (): string[] => {
    if (held.length === 0) return [];
    const first = held[0]!;
    const tasks = held.map((l) => /^task ([a-z0-9-]+)/.exec(l.detail)?.[1] ?? "?");
    held = [];
    const detail =
      tasks.length === 1
        ? `1 task: ${tasks[0]}`
        : `${tasks.length} tasks in parallel: ${tasks.join(", ")}`;
    return [format({ ...first, detail, verbose: false })];
  };

  return {
    push(line) {
      if (options.verbose) return [format(line)];
      if (line.event === "DISPATCH") {
        held.push(line);
        return [];
      }
      if (line.verbose === true) return [];
      return [...release(), format(line)];
    },
    end: release,
  };
}
