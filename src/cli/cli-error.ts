// A command that understood its arguments but could not do what they asked: exit code 1,
// one clear line saying what was wrong and what to do.

export class CliError extends Error {
  override readonly name = "CliError";
}
