// `cfa inspect N`: the job as a tree — states, gates, tasks, artifacts, and turns, tokens
// and cost per instance — from its records on cfa/N.

import { CliError } from "../cli-error.js";
import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import { renderInspect } from "../inspect-render.js";
import { readJobRecords } from "../job-records.js";
import { readJobView } from "../job-view.js";
import {
  HELP_OPTION,
  parseCommandArgs,
  parseJobNumber,
  REPO_OPTION,
} from "../parse-command-args.js";
import { resolveRepo } from "../resolve-repo.js";
import { priceOf, resolveModel } from "../../wiring/index.js";

const OPTIONS = { ...HELP_OPTION, ...REPO_OPTION } as const;

export const inspectCommand: Command = {
  name: "inspect",
  summary: "the job as a tree: states, gates, tasks, artifacts, turns, tokens, cost",
  usage: `
Usage: cfa inspect <N> [--repo DIR]

Shows job N as a tree, from its records on the branch cfa/<N>: each entry into a state with
its outcome and gates, the tasks it dispatched (status, verifier verdict, files written),
the artifacts, and per agent instance its turns, tool calls, tokens and cost, with totals.

Options:
  --repo DIR    the repository (default: the current folder)
  --help, -h    this help`,

  async run(argv, io) {
    const parsed = parseCommandArgs("inspect", argv, OPTIONS, { required: ["<N>"] });
    if (parsed === null) return printUsage(io, inspectCommand);
    const n = parseJobNumber("inspect", parsed.positionals[0] ?? "");
    const repoDir = await resolveRepo(io.cwd, parsed.values.repo);
    const texts = await readJobRecords(repoDir, n);
    if (texts === null)
      throw new CliError(`there is no job #${n} in ${repoDir} (no branch cfa/${n}).`);
    const lines = renderInspect(readJobView(texts), { resolveModel, price: priceOf });
    io.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  },
};
