// `cfa demo`: replays the shipped recording of a complete job (recordings/demo.json) in a
// fresh temporary repository — intent, a plan with one requested change, three parallel
// tasks merged back, done — printing the live log, then where to look. No key needed.

import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { packageRoot } from "../../skills/package-root.js";
import type { CliIo } from "../cli-io.js";
import type { Command } from "../command.js";
import { cliName, printUsage } from "../command.js";
import { HELP_OPTION, parseCommandArgs, VERBOSE_OPTION } from "../parse-command-args.js";

const OPTIONS = {
  ...HELP_OPTION,
  dir: { type: "string" },
  ...VERBOSE_OPTION,
} as const;

export const demoPath = (): string => join(packageRoot(), "recordings", "demo.json");

export const demoCommand: Command = {
  name: "demo",
  usage: `
Usage: cfa demo [--verbose] [--dir DIR]

Replays a recorded job in a fresh temporary repository (a tiny JavaScript library): the
intent lead drafts INTENT.md and you approve it; the project lead drafts PLAN.md, you ask
for one change, it revises and you approve; three tasks run in parallel, each verified and
merged back; the lead writes WORK_SUMMARY.md, you approve: DONE. Every model response comes
from the recording, so it runs in seconds with no key and no network. Then it says where
to look.

Options:
  --verbose, -v   per-task lines in the log
  --dir DIR       build the repository there (an empty or new folder) and keep it, with
                  the job's page; without it the demo's temporary folder is removed
  --help, -h      this help`,

  async run(argv, io) {
    const parsed = parseCommandArgs("demo", argv, OPTIONS, { required: [] });
    if (parsed === null) return printUsage(io, demoCommand);
    // Loaded when the demo runs, not with its help (main.ts).
    const [
      { parseReplayFile },
      { reportReplay },
      { runReplay },
      { whereToLook },
      { writeJobPage },
    ] = await Promise.all([
      import("../replay-file.js"),
      import("../report-replay.js"),
      import("../run-replay.js"),
      import("../where-to-look.js"),
      import("../page/write-job-page.js"),
    ]);
    const path = demoPath();
    const file = parseReplayFile(await readFile(path, "utf8"), path);
    const started = performance.now();
    io.stdout.write(`cfa demo: "${file.request.title}"\n\n`);
    const run = await runReplay(io, file, {
      source: path,
      ...(parsed.values.dir !== undefined ? { dir: resolve(io.cwd, parsed.values.dir) } : {}),
      verbose: parsed.values.verbose === true,
      onAction: (line) => io.stdout.write(`${line}\n`),
    });
    const cli = cliName(io.env);
    const keep = parsed.values.dir !== undefined;
    const { code, view } = await reportReplay(io, run, cli, { nextStep: keep });
    if (!keep) {
      // A temporary repository nobody asked to keep: it goes, with its job area (work-root.ts),
      // rather than ~9 MB left in the temporary folder and the cache at every demo.
      await removeDemo(io, run.root, run.repoDir);
      const seconds = (performance.now() - started) / 1000;
      io.stdout.write(
        `\nReplayed in ${seconds.toFixed(1)} s with no model and no network. Its repository was a temporary one, removed now: \`${cli} demo --dir cfa-demo\` keeps it, with the job's page and the commands to look around.\n`,
      );
      return code;
    }
    // The demo ends by pointing to the job's page (`cfa show`), where its pictures are drawn.
    const page =
      view === null ? null : await writeJobPage(run.repoDir, run.job, { cli, now: new Date() });
    const seconds = (performance.now() - started) / 1000;
    io.stdout.write(
      `\n${whereToLook({ run, view, cli, seconds, page: page === null ? undefined : page.drawn ? page.path : `${page.path} (${page.missing})` }).join("\n")}\n`,
    );
    return code;
  },
};

/** Removes the demo's temporary folder and the job area its repository had. */
async function removeDemo(io: CliIo, root: string, repoDir: string): Promise<void> {
  const { defaultWorkRoot } = await import("../work-root.js");
  const area = io.workRoot === undefined ? defaultWorkRoot(repoDir, io.env) : null;
  await rm(root, { recursive: true, force: true });
  if (area !== null) await rm(area, { recursive: true, force: true });
}
