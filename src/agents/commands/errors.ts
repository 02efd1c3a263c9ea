// The command policy's named error: the agent asked for a program its role does not allow.

export const COMMAND_REFUSAL_REASONS = [
  "empty",
  "not-bare",
  "not-allowed",
  "invalid-argument",
] as const;
export type CommandRefusalReason = (typeof COMMAND_REFUSAL_REASONS)[number];

export class CommandRefusedError extends Error {
  override readonly name = "CommandRefusedError";
  constructor(
    readonly reason: CommandRefusalReason,
    /** argv[0] as given (empty when there was none). */
    readonly program: string,
    readonly allowed: readonly string[],
  ) {
    super(refusalMessage(reason, program, allowed));
  }
}

function refusalMessage(
  reason: CommandRefusalReason,
  program: string,
  allowed: readonly string[],
): string {
  const choices =
    allowed.length > 0
      ? `allowed commands for this role: ${allowed.join(", ")}`
      : "this role may not run any command";
  const shown = JSON.stringify(program);
  switch (reason) {
    case "empty":
      return `cfa/commands: no command given (argv[0] is empty); ${choices}`;
    case "not-bare":
      return `cfa/commands: ${shown} is not a bare program name; name the program without a path (no "/" or ".."); ${choices}`;
    case "not-allowed":
      return `cfa/commands: ${shown} is not an allowed command; ${choices}`;
    case "invalid-argument":
      return `cfa/commands: an argument of ${shown} contains a NUL character, which no program can receive; ${choices}`;
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}
