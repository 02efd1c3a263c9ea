// The bash tool's session between calls: the folder it is in and what it exported. What the
// last command left in its dump folder was written by agent-run code, so it is read as hostile
// input — bounded, names checked, the folder held inside the workspace — and only then merged
// into the session the engine keeps (outside the sandbox's reach).

import * as z from "zod";

/** What the engine keeps for one instance's session. */
export const ShellSessionSchema = z.strictObject({
  /** Root-relative folder, "." for the root. */
  cwd: z.string().max(4096),
  /** Variables the session set or changed, on top of the sandbox's own environment. */
  env: z.record(z.string(), z.string()),
  /** Variables of the sandbox's environment the session unset. */
  unset: z.array(z.string()),
});
export type ShellSession = z.infer<typeof ShellSessionSchema>;

export const FRESH_SESSION: ShellSession = { cwd: ".", env: {}, unset: [] };

/** The most a dump file is read of; a larger one is not taken. */
export const MAX_DUMP_BYTES = 256 * 1024;
/** What the session may carry: past these, the variables are not kept (and the agent is told). */
const MAX_VARIABLES = 200;
const MAX_ENV_BYTES = 64 * 1024;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Kept by the shell itself, never by the session. */
const SHELL_OWN = new Set(["PWD", "OLDPWD", "SHLVL", "_"]);

/** `env -0` output as a map; entries that are not NAME=value with a valid name are dropped. */
export function parseEnvDump(dump: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of dump.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!ENV_NAME.test(name) || SHELL_OWN.has(name)) continue;
    out.set(name, entry.slice(eq + 1));
  }
  return out;
}

/**
 * The session after a call: what the command changed between the start and the end of its
 * run (set, changed, unset) on top of what the session carried before.
 */
export function nextSession(
  before: ShellSession,
  dump: { start: Map<string, string>; end: Map<string, string>; cwd: string },
): { session: ShellSession; notes: string[] } {
  const env = { ...before.env };
  const unset = new Set(before.unset);
  for (const [name, value] of dump.end) {
    if (dump.start.get(name) === value) continue;
    env[name] = value;
    unset.delete(name);
  }
  for (const name of dump.start.keys()) {
    if (dump.end.has(name)) continue;
    delete env[name];
    unset.add(name);
  }
  const notes: string[] = [];
  const names = Object.keys(env);
  const bytes = names.reduce((n, k) => n + k.length + (env[k]?.length ?? 0) + 2, 0);
  if (names.length > MAX_VARIABLES || bytes > MAX_ENV_BYTES) {
    notes.push(
      `cfa: the session's exported variables (${names.length}, ${bytes} bytes) are over what it keeps (${MAX_VARIABLES} variables, ${MAX_ENV_BYTES} bytes): the next command starts without them`,
    );
    return { session: { cwd: dump.cwd, env: {}, unset: [] }, notes };
  }
  return { session: { cwd: dump.cwd, env, unset: [...unset].sort() }, notes };
}

/** The environment a call starts from: the sandbox's own, with the session's changes. */
export function sessionEnv(
  base: Readonly<Record<string, string>>,
  session: ShellSession,
): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const name of session.unset) delete out[name];
  for (const [name, value] of Object.entries(session.env)) {
    if (ENV_NAME.test(name) && !SHELL_OWN.has(name) && !value.includes("\0")) out[name] = value;
  }
  return out;
}
