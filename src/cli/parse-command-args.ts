// Argument parsing for every command: node:util parseArgs (strict), with its errors turned
// into UsageErrors that name the bad argument and the command.

import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error.js";

export type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Every command takes `--help` / `-h`. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;
/** Commands on a repository's jobs take `--repo DIR` (default: the current folder). */
export const REPO_OPTION = { repo: { type: "string" } } as const;
/** Per-task lines in the live log. */
export const VERBOSE_OPTION = { verbose: { type: "boolean", short: "v" } } as const;
/** Append the action and the model's responses to a replay file. */
export const RECORD_OPTION = { record: { type: "string" } } as const;

export interface PositionalSpec {
  /** Names of the required positionals, in order, for messages (`<N>`, `<request>`). */
  required: readonly string[];
  /** Names of the optional ones that may follow. */
  optional?: readonly string[];
}

type Config<O extends OptionsConfig> = {
  args: string[];
  options: O;
  allowPositionals: true;
  strict: true;
};
export type ParsedArgs<O extends OptionsConfig> = ReturnType<typeof parseArgs<Config<O>>>;

/**
 * Parses `argv` for `command`. Returns null when `--help` was asked for (the caller prints
 * its usage); throws a UsageError for an unknown option, a missing value, or the wrong
 * number of positionals.
 */
export function parseCommandArgs<const O extends OptionsConfig>(
  command: string,
  argv: readonly string[],
  options: O,
  positionals: PositionalSpec,
): ParsedArgs<O> | null {
  let parsed: ParsedArgs<O>;
  try {
    parsed = parseArgs<Config<O>>({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // `cfa approve -1`: a negative number where <N> goes reads as an option to parseArgs;
    // the person meant a job number, so the answer is about that.
    const unknown = (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    const number = argv.find((a) => /^-[0-9]/.test(a));
    if (unknown && positionals.required[0] === "<N>" && number !== undefined) {
      parseJobNumber(command, number);
    }
    throw new UsageError(command, describeParseError(error));
  }
  if ((parsed.values as Record<string, unknown>).help === true) return null;
  const count = parsed.positionals.length;
  const max = positionals.required.length + (positionals.optional?.length ?? 0);
  if (count < positionals.required.length) {
    const missing = positionals.required.slice(count);
    throw new UsageError(command, `missing ${missing.join(" and ")}`);
  }
  if (count > max) {
    const extra = parsed.positionals[max] ?? "";
    throw new UsageError(
      command,
      `unexpected argument ${JSON.stringify(extra)}` +
        (max === 0 ? " (this command takes none)" : "; quote text that has spaces"),
    );
  }
  return parsed;
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (message.includes("argument missing")) {
        return `option ${quoted.replace(/ <value>$/, "")} needs a value`;
      }
      // `--comment --repo x` or `--interval -1`: the next word starts with a dash, so node
      // will not take it as the value (it may be the next option).
      if (message.includes("argument is ambiguous")) {
        return `option ${quoted} needs a value, and the next word starts with a dash: write ${quoted}="-…" if the value does, or give the value`;
      }
      return `option ${quoted} does not take a value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${quoted}`;
    default:
      return message;
  }
}

/** A job number: `3` or `#3`. */
export function parseJobNumber(command: string, text: string): number {
  const digits = text.startsWith("#") ? text.slice(1) : text;
  const n = /^[0-9]{1,9}$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(
      command,
      `<N> must be a job (issue) number such as 1, got ${JSON.stringify(text)}`,
    );
  }
  return n;
}
