// What every command on one job reads first: `<N>`, the job's number, and the repository it
// lives in (`--repo DIR`, default the current folder), checked.

import {
  parseCommandArgs,
  parseJobNumber,
  type OptionsConfig,
  type ParsedArgs,
} from "./parse-command-args.js";
import { resolveRepo } from "./resolve-repo.js";

export interface JobArgs<O extends OptionsConfig> {
  n: number;
  /** The repository's top folder. */
  repoDir: string;
  values: ParsedArgs<O>["values"];
}

/**
 * Parses `argv` for `command`, which takes `<N>` alone and `options` (REPO_OPTION among them).
 * Null when `--help` was asked for (the caller prints its usage); a UsageError or CliError
 * naming what is wrong otherwise.
 */
export async function parseJobArgs<const O extends OptionsConfig>(
  command: string,
  argv: readonly string[],
  cwd: string,
  options: O,
): Promise<JobArgs<O> | null> {
  const parsed = parseCommandArgs(command, argv, options, { required: ["<N>"] });
  if (parsed === null) return null;
  const n = parseJobNumber(command, parsed.positionals[0] ?? "");
  const repoDir = await resolveRepo(cwd, (parsed.values as { repo?: string }).repo);
  return { n, repoDir, values: parsed.values };
}
