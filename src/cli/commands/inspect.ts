// `cfa inspect N`: the job as a tree — states, gates, tasks, artifacts, and turns, tokens
// and cost per instance — from its records on cfa/N.

import { CliError } from "../cli-error.js";
import type { Command } from "../command.js";
import { printUsage } from "../command.js";
import { parseJobArgs } from "../job-args.js";
import { HELP_OPTION, REPO_OPTION } from "../parse-command-args.js";

const OPTIONS = { ...HELP_OPTION, ...REPO_OPTION, task: { type: "string" } } as const;

export const inspectCommand: Command = {
  name: "inspect",
  usage: `
Usage: cfa inspect <N> [--task ID] [--repo DIR]

Shows job N as a tree, from its records on the branch cfa/<N>: each entry into a state with
its outcome and gates, the tasks it dispatched (status, verifier verdict, files written),
the artifacts, and per agent instance its turns, tool calls, tokens and cost, with totals.

With --task, one task up close: its brief, its worker's replies, each verifier run with the
commands it ran and its verdict, its branch and where it merged.

Options:
  --task ID     one task up close
  --repo DIR    the repository (default: the current folder)
  --help, -h    this help`,

  async run(argv, io) {
    const args = await parseJobArgs("inspect", argv, io.cwd, OPTIONS);
    if (args === null) return printUsage(io, inspectCommand);
    const [{ renderInspect }, { readJobRecords }, { readJobView }, { clean, renderTask }, wiring] =
      await Promise.all([
        import("../inspect-render.js"),
        import("../job-records.js"),
        import("../job-view.js"),
        import("../task-render.js"),
        import("../../wiring/index.js"),
      ]);
    const { priceOf, resolveModel } = wiring;
    const { n, repoDir, values } = args;
    const texts = await readJobRecords(repoDir, n);
    if (texts === null)
      throw new CliError(`there is no job #${n} in ${repoDir} (no branch cfa/${n}).`);
    const view = readJobView(texts);
    const task = values.task?.trim();
    if (task !== undefined) {
      const section = renderTask(view, task);
      if (section === null) {
        const known = Object.keys(view.engine?.tasks ?? {}).sort();
        throw new CliError(
          `job #${n} has no task ${JSON.stringify(clean(task))}${
            known.length > 0 ? ` (its tasks: ${known.join(", ")})` : " (it has dispatched none yet)"
          }.`,
        );
      }
      io.stdout.write(`${section.join("\n")}\n`);
      return 0;
    }
    const lines = renderInspect(view, { resolveModel, price: priceOf });
    io.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  },
};
