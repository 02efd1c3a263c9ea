// A command line that cannot mean anything: exit code 2, the message names the argument.

export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    /** The command whose usage was broken ("approve"), or null for `cfa` itself. */
    readonly command: string | null,
    message: string,
  ) {
    super(message);
  }
}
