// A verb a person uses on one waiting job (approve, reject, answer, intervene, withdraw,
// resume): `cfa <verb> <N> …` with --repo, --verbose and --record, parsed the same way for
// all of them; each verb says only what it adds — its options, the text it takes, and the
// action and the check it hands to actOnJob.

import type { ParseArgsConfig } from "node:util";
import { actOnJob, type ActRequest } from "./act-on-job.js";
import type { Command } from "./command.js";
import { printUsage } from "./command.js";
import {
  HELP_OPTION,
  parseCommandArgs,
  parseJobNumber,
  RECORD_OPTION,
  REPO_OPTION,
  VERBOSE_OPTION,
  type ParsedArgs,
  type PositionalSpec,
} from "./parse-command-args.js";
import { UsageError } from "./usage-error.js";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** What every job verb takes, besides its own options. */
const JOB_VERB_OPTIONS = {
  ...HELP_OPTION,
  ...REPO_OPTION,
  ...VERBOSE_OPTION,
  ...RECORD_OPTION,
} as const;

export type JobVerbArgs<O extends OptionsConfig> = ParsedArgs<typeof JOB_VERB_OPTIONS & O>;

export interface JobVerb<O extends OptionsConfig> {
  name: string;
  summary: string;
  usage: string;
  /** The verb's own options, besides --repo, --verbose, --record and --help. */
  options?: O;
  /** The positionals after <N> (its text, a reason), for the messages. */
  after?: Omit<PositionalSpec, "required"> & { required?: readonly string[] };
  /** The action on job `n`, and what the job must be for it; throws a UsageError for bad text. */
  act(n: number, args: JobVerbArgs<O>): Pick<ActRequest, "action" | "check" | "needsModel">;
}

export function jobVerb<const O extends OptionsConfig = Record<never, never>>(
  verb: JobVerb<O>,
): Command {
  const options = { ...JOB_VERB_OPTIONS, ...verb.options } as typeof JOB_VERB_OPTIONS & O;
  const command: Command = {
    name: verb.name,
    summary: verb.summary,
    usage: verb.usage,
    async run(argv, io) {
      const parsed = parseCommandArgs(verb.name, argv, options, {
        required: ["<N>", ...(verb.after?.required ?? [])],
        ...(verb.after?.optional ? { optional: verb.after.optional } : {}),
      });
      if (parsed === null) return printUsage(io, command);
      const n = parseJobNumber(verb.name, parsed.positionals[0] ?? "");
      const values = parsed.values as { repo?: string; verbose?: boolean; record?: string };
      return actOnJob(io, {
        n,
        repo: values.repo,
        verbose: values.verbose === true,
        record: values.record,
        ...verb.act(n, parsed),
      });
    },
  };
  return command;
}

/** The verb's text argument (after <N>), trimmed; a UsageError saying what to write if empty. */
export function requiredText(verb: string, text: string | undefined, what: string): string {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") throw new UsageError(verb, `<text> is empty: ${what}`);
  return trimmed;
}
