// The bash tool's one command, as one sandboxed `bash` run. Anthropic's bash tool keeps one
// shell alive between calls, so "the working directory, environment variables, and any files
// a command creates are still there for the next command"
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/bash-tool). Here each call
// is its own sandboxed process (its limits, timeout and evidence are the command's), and the
// session is carried between them: the call starts in the folder the last one ended in, with
// the variables it exported, and leaves where it ended and what it exported in the dump folder
// (bound read-write into the sandbox, outside the workspace) for the engine to read back.
//
// The command is an argument, never spliced into the script: `eval "$3"` runs it in the
// script's own shell, so `cd` and `export` take effect there and pipes, heredocs and `&&`
// work as typed. The EXIT trap records the state whatever way the command ends (`exit 3`
// included); a command killed by its limits records nothing and the session stays as it was.

export const SHELL_PROGRAM = "bash";

/** The dump files the script writes (shell-state.ts reads them). */
export const DUMP_FILES = { cwd: "cwd", start: "env-start", end: "env-end" } as const;

const SCRIPT = [
  "__cfa_dump=$1; __cfa_cwd=$2; __cfa_cmd=$3; shift 3",
  `__cfa_save() { printf '%s' "$PWD" > "$__cfa_dump/${DUMP_FILES.cwd}"; env -0 > "$__cfa_dump/${DUMP_FILES.end}"; } 2>/dev/null`,
  "trap __cfa_save EXIT",
  `cd -- "$__cfa_cwd" 2>/dev/null || printf 'cfa: the session folder %s is gone; this command runs in the workspace root\\n' "$__cfa_cwd" >&2`,
  `env -0 > "$__cfa_dump/${DUMP_FILES.start}" 2>/dev/null`,
  'eval "$__cfa_cmd"',
].join("\n");

/** argv of one call: no profile or rc file, the script, then its three arguments. */
export function shellArgv(dumpDir: string, cwd: string, command: string): string[] {
  return [SHELL_PROGRAM, "--noprofile", "--norc", "-c", SCRIPT, "cfa-bash", dumpDir, cwd, command];
}
