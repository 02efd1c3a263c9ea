// `cfa clean [--dry-run]`: removes the job areas nothing needs any more — those of jobs that
// ended, and those of repositories that no longer exist — and says what it freed.

import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import { HELP_OPTION, parseCommandArgs } from "../parse-command-args.js";

const OPTIONS = { ...HELP_OPTION, "dry-run": { type: "boolean", short: "n" } } as const;

export const cleanCommand: Command = {
  name: "clean",
  usage: `
Usage: cfa clean [--dry-run]

Job areas (each job's worktrees and the log of its paid model responses) live outside your
repositories, under ~/.cache/cfa-bot/work/ ($XDG_CACHE_HOME/cfa-bot/work/ when that is
set). This removes those nothing needs any more: the areas of jobs that ended (DONE,
WITHDRAWN, FAILURE) and every area of a repository that no longer exists, and says what it
freed. A live job's area, and one whose repository cfa cannot tell, is kept. The records of
a job are on its branch (cfa/<N>) and stay there.

Options:
  --dry-run, -n   say what would be removed, and remove nothing
  --help, -h      this help

Needs no key.`,

  async run(argv, io) {
    const parsed = parseCommandArgs("clean", argv, OPTIONS, { required: [] });
    if (parsed === null) return printUsage(io, cleanCommand);
    const { cleanAreas } = await import("../clean-areas.js");
    return cleanAreas(io, { dryRun: parsed.values["dry-run"] === true });
  },
};
