// Nothing the worker prints runs as a workflow command. Each case puts hostile text (a held-back
// workflow file's name with newlines in it, a reason, a path) through every way the worker prints —
// each logger level, a progress line — and reads the output the way the runner does (actions/runner
// src/Runner.Common/ActionCommand.cs: a line is split on \r, \n; `::name::` after TrimStart,
// `##[name]` anywhere; between `::stop-commands::T` and `::T::` nothing runs). Positive control:
// the same text printed raw runs commands.

import { describe, expect, it } from "vitest";
import { createActionsLogger, printToActions } from "../../src/worker/actions-logger.js";
import { cases } from "../support/adversarial/count.js";

const COMMANDS = [
  "add-mask",
  "stop-commands",
  "error",
  "warning",
  "set-output",
  "set-env",
  "debug",
  "notice",
  "group",
  "save-state",
  "add-path",
  "echo",
];

/** The commands the runner would run reading `output`, as its parser and stop logic do. */
function runnerCommands(output: string): string[] {
  const ran: string[] = [];
  let stopToken: string | null = null;
  for (const line of output.split(/\r\n|\r|\n/)) {
    let name: string | null = null;
    let data = "";
    const trimmed = line.replace(/^\s+/u, "");
    const v2 = /^::([^ :]+)[^:]*::(.*)$/su.exec(trimmed);
    const v1 = /##\[([^ \]]+)[^\]]*\](.*)$/su.exec(line);
    if (v2) [name, data] = [v2[1] as string, v2[2] as string];
    else if (v1) [name, data] = [v1[1] as string, v1[2] as string];
    if (name === null) continue;
    if (stopToken !== null) {
      if (name.toLowerCase() === stopToken.toLowerCase()) stopToken = null;
      continue;
    }
    if (name === "stop-commands") {
      stopToken = data;
      continue;
    }
    if (COMMANDS.includes(name)) ran.push(`${name}:${data}`);
  }
  return ran;
}

const HOSTILE: readonly [string, string][] = [
  ["a file name with ::add-mask::", "ci.yml\n::add-mask::ghs_everything"],
  ["a file name with ::stop-commands::", "a.yml\n::stop-commands::pwned\nb.yml"],
  ["a file name with ::error::", "x.yml\n::error file=app.js,line=1::forged annotation"],
  ["a carriage return", "x.yml\r::warning::forged"],
  ["CRLF", "x.yml\r\n::set-output name=x::y"],
  ["leading spaces", "x\n   ::add-mask::secret"],
  ["a tab and unicode spaces", "x\n\t\u00a0\u2003::add-mask::secret"],
  ["an old ##[ command mid-line", "name ##[add-mask]secret"],
  ["an old ##[ command after a newline", "x\nprefix ##[error]forged"],
  ["percent-encoded newline", "x%0A::add-mask::secret"],
  ["a guessed resume token", "x\n::stop-commands::t\n::t::\n::add-mask::s"],
  ["a message that is itself a command", "::add-mask::secret"],
];

/** Each way the worker prints a line whose text it does not control. */
const CHANNELS: readonly [string, (text: string, print: (line: string) => void) => void][] = [
  ["logger.info", (t, p) => createActionsLogger(p, (x) => x).info(`held back: ${t}`)],
  ["logger.warn", (t, p) => createActionsLogger(p, (x) => x).warn(`held back: ${t}`)],
  ["logger.error", (t, p) => createActionsLogger(p, (x) => x).error(t)],
  ["logger.debug", (t, p) => createActionsLogger(p, (x) => x).debug(t)],
  ["logger fields", (t, p) => createActionsLogger(p, (x) => x).info("x", { path: t })],
  ["a progress line", (t, p) => printToActions(p, "info", `12:00 #1 ENGINE HELD BACK ${t}`)],
  ["a line that starts with the text", (t, p) => printToActions(p, "info", t)],
];

const TABLE = CHANNELS.flatMap(([channel, emit]) =>
  HOSTILE.map(([what, text]) => [`${what} through ${channel}`, text, emit] as const),
);

describe(cases("workflow commands injected into the worker's log", TABLE.length), () => {
  it.each(TABLE)("%s: runs nothing of its own", (_name, text, emit) => {
    const lines: string[] = [];
    emit(text, (line) => lines.push(line));
    const ran = runnerCommands(lines.join("\n"));
    // At most the one annotation the worker meant (its level), carrying the whole text.
    expect(ran.length).toBeLessThanOrEqual(1);
    for (const command of ran) expect(command).toMatch(/^(warning|error|debug):/u);
  });

  it("positive control: printed raw, the hostile texts run commands", () => {
    const ran = HOSTILE.flatMap(([, text]) => runnerCommands(`held back: ${text}`));
    expect(ran.some((c) => c.startsWith("add-mask"))).toBe(true);
    expect(ran.some((c) => c.startsWith("error"))).toBe(true);
    expect(HOSTILE.filter(([, text]) => runnerCommands(text).length > 0).length).toBeGreaterThan(
      HOSTILE.length / 2,
    );
  });

  it("an annotation keeps its whole text, escaped as GitHub documents (%25, %0D, %0A)", () => {
    const lines: string[] = [];
    createActionsLogger(
      (l) => lines.push(l),
      (x) => x,
    ).warn("a\nb\r%c");
    expect(lines).toEqual(["::warning::a%0Ab%0D%25c"]);
  });

  it("a plain one-line message is printed as is", () => {
    const lines: string[] = [];
    printToActions((l) => lines.push(l), "info", "cfa/worker: starting job #3");
    expect(lines).toEqual(["cfa/worker: starting job #3"]);
  });
});
