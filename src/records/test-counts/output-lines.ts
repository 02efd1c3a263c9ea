// A command's output as the runners' parsers read it: bounded, colour codes and terminal
// redraws removed, one trimmed line each. The bounds keep the work proportional to what
// the sandbox kept (itself capped), whatever an agent prints.

import { RE2JS } from "re2js";

/** Per stream: the summary is at the end of a run, and a cut stream keeps its head. */
export const STREAM_CHARS = 128 * 1024;
/** A summary line is short; anything longer is cut before a pattern sees it. */
export const LINE_CHARS = 400;

// ECMA-48: CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks, ended
// by BEL or ST) and the two-byte escapes; what a terminal would not print.
const ESCAPES = RE2JS.compile(
  String.raw`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]`,
);

/** The lines of stdout then stderr, each stream's last STREAM_CHARS only. */
export function outputLines(streams: readonly string[]): string[] {
  const lines: string[] = [];
  for (const stream of streams) {
    const text = stream.length > STREAM_CHARS ? stream.slice(-STREAM_CHARS) : stream;
    const plain =
      text.includes("\x1b") || text.includes("\x9b") ? ESCAPES.matcher(text).replaceAll("") : text;
    for (const raw of plain.split("\n")) lines.push(screenLine(raw));
  }
  return lines;
}

/** What a terminal shows of one line: after its last carriage return, trimmed, bounded. */
function screenLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const shown = line.slice(line.lastIndexOf("\r") + 1);
  return shown.trim().slice(0, LINE_CHARS);
}
