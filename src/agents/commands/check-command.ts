// The role's command allowlist (docs/sandbox.md: a bare program name on the
// role's allowlist). It names programs, not paths: a path would let `./evil` or
// `/tmp/x/git` stand in for an allowed name, so argv[0] must be a bare name found
// through the sandbox's PATH. The allowlist is a guard on intent, not containment: an
// allowed `node` or `npx` can run anything, which is why commands also run under bwrap.

import { CommandRefusedError } from "./errors.js";

/** Returns the program name when `argv` may run; throws CommandRefusedError otherwise. */
export function checkCommand(argv: readonly string[], allowed: readonly string[]): string {
  const program = argv[0] ?? "";
  if (program.trim() === "") throw new CommandRefusedError("empty", program, allowed);
  if (!isBareName(program)) throw new CommandRefusedError("not-bare", program, allowed);
  if (!allowed.includes(program)) throw new CommandRefusedError("not-allowed", program, allowed);
  if (argv.some((arg) => arg.includes("\0"))) {
    throw new CommandRefusedError("invalid-argument", program, allowed);
  }
  return program;
}

function isBareName(program: string): boolean {
  return (
    !program.includes("/") &&
    !program.includes("\\") &&
    !program.includes("..") &&
    !program.includes("\0") &&
    program !== "." &&
    // A leading dash would read as an option to whatever launches it.
    !program.startsWith("-")
  );
}
