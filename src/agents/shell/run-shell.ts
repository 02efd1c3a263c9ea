// One call of the bash tool: the instance's session read back, the command run as one
// sandboxed `bash` (shell-script.ts), the session it leaves checked and kept. The session
// lives outside the workspace, in a folder of the engine's (`dir`): `session.json`, which only
// the engine writes, and `dump/`, the one folder the command may write there, emptied before
// each call and read back as hostile input (no links followed, bounded, names checked, the
// folder kept inside the workspace).

import { constants, realpathSync } from "node:fs";
import { mkdir, open, readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandResult } from "../../ports/sandbox.js";
import { DUMP_FILES, shellArgv } from "./shell-script.js";
import {
  FRESH_SESSION,
  MAX_DUMP_BYTES,
  ShellSessionSchema,
  nextSession,
  parseEnvDump,
  sessionEnv,
  type ShellSession,
} from "./shell-state.js";

export interface ShellCall {
  /** The command line, run by bash; absent only with `restart`. */
  command?: string;
  /** Start a fresh session first (the tool's `restart`). */
  restart?: boolean;
}

export interface ShellRun {
  /** argv to run (bash and its script), and what the run needs beyond a plain command. */
  argv: string[];
  /** Bound read-write into the sandbox, at its own path: where the command leaves its state. */
  stateDir: string;
  /** The command's environment from the sandbox's own: the session's variables on top. */
  patchEnv(env: Record<string, string>): Record<string, string>;
}

export interface ShellOutcome {
  /** Null when the call only restarted the session. */
  result: CommandResult | null;
  /** Lines for the agent about the session (a folder it left, variables not kept). */
  notes: string[];
  /** The session's folder after the call, root-relative ("." for the root). */
  cwd: string;
}

export async function runShell(
  call: ShellCall,
  options: {
    /** The instance's session folder: outside every workspace, the engine's own. */
    dir: string;
    /** The workspace root, where a session's folder must stay. */
    root: string;
    run(run: ShellRun): Promise<CommandResult>;
  },
): Promise<ShellOutcome> {
  const file = path.join(options.dir, "session.json");
  const dumpDir = path.join(options.dir, "dump");
  if (call.restart === true) await rm(file, { force: true });
  const before = call.restart === true ? FRESH_SESSION : await loadSession(file);
  if (call.command === undefined) return { result: null, notes: [], cwd: before.cwd };

  await mkdir(dumpDir, { recursive: true });
  await emptyFolder(dumpDir);
  const result = await options.run({
    argv: shellArgv(dumpDir, before.cwd, call.command),
    stateDir: dumpDir,
    patchEnv: (env) => sessionEnv(env, before),
  });

  const notes: string[] = [];
  const dump = await readDump(dumpDir);
  if (dump === null) {
    if (result.timedOut || result.exitCode === null) {
      notes.push(
        "cfa: the command did not finish, so the session keeps the folder and variables it had before it",
      );
    }
    return { result, notes, cwd: before.cwd };
  }
  const cwd = insideFolder(options.root, dump.cwd);
  if (cwd === null) {
    notes.push(
      `cfa: the command ended outside the workspace (${dump.cwd.slice(0, 200)}); the next command starts in ${before.cwd === "." ? "the workspace root" : before.cwd}`,
    );
  }
  const next = nextSession(before, { ...dump, cwd: cwd ?? before.cwd });
  notes.push(...next.notes);
  await writeFile(file, JSON.stringify(next.session));
  return { result, notes, cwd: next.session.cwd };
}

async function loadSession(file: string): Promise<ShellSession> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return FRESH_SESSION;
  }
  try {
    const parsed = ShellSessionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : FRESH_SESSION;
  } catch {
    return FRESH_SESSION;
  }
}

async function emptyFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** The three dump files, or null when the command did not leave them whole. */
async function readDump(
  dir: string,
): Promise<{ cwd: string; start: Map<string, string>; end: Map<string, string> } | null> {
  const cwd = await readBounded(path.join(dir, DUMP_FILES.cwd));
  const start = await readBounded(path.join(dir, DUMP_FILES.start));
  const end = await readBounded(path.join(dir, DUMP_FILES.end));
  if (cwd === null || start === null || end === null) return null;
  return { cwd, start: parseEnvDump(start), end: parseEnvDump(end) };
}

/** A regular file's text, never through a link and never past MAX_DUMP_BYTES; else null. */
async function readBounded(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_DUMP_BYTES) return null;
    const buffer = Buffer.alloc(stats.size);
    const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** `folder` as a root-relative path when it is the root or inside it, links resolved; else null. */
function insideFolder(root: string, folder: string): string | null {
  if (!path.isAbsolute(folder) || folder.includes("\0")) return null;
  let real: string;
  let rootReal: string;
  try {
    real = realpathSync(folder);
    rootReal = realpathSync(root);
  } catch {
    return null;
  }
  if (real === rootReal) return ".";
  if (!real.startsWith(`${rootReal}/`)) return null;
  const relative = real.slice(rootReal.length + 1);
  // `.git` is the engine's: a session is never left in it.
  return relative.split("/").some((part) => part.toLowerCase() === ".git") ? null : relative;
}
