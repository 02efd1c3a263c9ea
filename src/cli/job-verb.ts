// A verb a person uses on one waiting job (approve, reject, answer, intervene, withdraw,
// resume): `cfa <verb> <N> …` with --repo, --verbose and --record, parsed the same way for
// all of them; each verb says only what it adds — its options, the text it takes, and the
// action and the check it hands to actOnJob.

import type { ParseArgsConfig } from "node:util";
import type { ActRequest } from "./act-on-job.js";
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
  /** The usage line and what the verb does; jobVerb adds the options and the key it needs. */
  usage: string;
  /** The verb's own options, besides --repo, --verbose, --record and --help. */
  options?: O;
  /** Their help: the option as typed, what it does (a "\n" continues on the next line). */
  optionHelp?: readonly (readonly [string, string])[];
  /** What --record appends; "this action and the model's responses" unless the verb says. */
  records?: string;
  /** The help's last line; "Needs ANTHROPIC_API_KEY." unless the verb runs no agent. */
  needs?: string;
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
    usage: jobVerbUsage(verb),
    async run(argv, io) {
      const parsed = parseCommandArgs(verb.name, argv, options, {
        required: ["<N>", ...(verb.after?.required ?? [])],
        ...(verb.after?.optional ? { optional: verb.after.optional } : {}),
      });
      if (parsed === null) return printUsage(io, command);
      const n = parseJobNumber(verb.name, parsed.positionals[0] ?? "");
      const values = parsed.values as { repo?: string; verbose?: boolean; record?: string };
      // Loaded when the verb runs, not with its help (main.ts).
      const { actOnJob } = await import("./act-on-job.js");
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

/** The usage with the options every job verb takes after the verb's own, aligned as one table. */
function jobVerbUsage(verb: JobVerb<OptionsConfig>): string {
  const rows = [
    ...(verb.optionHelp ?? []),
    ["--repo DIR", "the repository (default: the current folder)"],
    ["--verbose, -v", "per-task lines in the log"],
    [
      "--record FILE",
      `append ${verb.records ?? "this action and the model's responses"} to a replay file`,
    ],
    ["--help, -h", "this help"],
  ];
  const width = Math.max(16, ...rows.map(([option]) => option.length + 2));
  const lines = rows.map(
    ([option, text]) =>
      `  ${option.padEnd(width)}${text.replaceAll("\n", `\n  ${" ".repeat(width)}`)}`,
  );
  return `${verb.usage}\n\nOptions:\n${lines.join("\n")}\n\n${verb.needs ?? "Needs ANTHROPIC_API_KEY."}`;
}

/** The verb's text argument (after <N>), trimmed; a UsageError saying what to write if empty. */
export function requiredText(verb: string, text: string | undefined, what: string): string {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") throw new UsageError(verb, `<text> is empty: ${what}`);
  return trimmed;
}
