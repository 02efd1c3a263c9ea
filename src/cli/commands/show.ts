// `cfa show N`: the job's page — one self-contained HTML file of the status comment with its
// pictures drawn, the history, the tasks with their verdicts and evidence, and the
// artifacts — written from its records on cfa/N; prints the file's path.

import { resolve } from "node:path";
import type { Command } from "../command.js";
import { cliName, printUsage } from "../command.js";
import { parseJobArgs } from "../job-args.js";
import { HELP_OPTION, REPO_OPTION } from "../parse-command-args.js";

const OPTIONS = { ...HELP_OPTION, ...REPO_OPTION, out: { type: "string", short: "o" } } as const;

export const showCommand: Command = {
  name: "show",
  usage: `
Usage: cfa show <N> [--out FILE] [--repo DIR]

Writes job N's page, from its records on the branch cfa/<N>: one self-contained HTML file
(nothing loaded from the network) with the status comment and its pictures drawn, the
history, each task with its verdicts and the commands they rest on, the job's tree, and
INTENT.md, PLAN.md and WORK_SUMMARY.md. Prints the file's path; open it in a browser.

Options:
  --out, -o FILE  where to write it (default: .git/cfa-local/job-<N>.html in the repository)
  --repo DIR      the repository (default: the current folder)
  --help, -h      this help`,

  async run(argv, io) {
    const args = await parseJobArgs("show", argv, io.cwd, OPTIONS);
    if (args === null) return printUsage(io, showCommand);
    const { writeJobPage } = await import("../page/write-job-page.js");
    const out = args.values.out;
    const page = await writeJobPage(args.repoDir, args.n, {
      ...(out !== undefined ? { out: resolve(io.cwd, out) } : {}),
      cli: cliName(io.env),
      now: new Date(),
    });
    if (!page.drawn) io.stderr.write(`cfa: ${page.missing}.\n`);
    io.stdout.write(`${page.path}\n`);
    return 0;
  },
};
