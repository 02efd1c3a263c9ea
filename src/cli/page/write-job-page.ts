// `cfa show` and the demo's last line: job N's page (page/job-page.ts) from its records on
// cfa/N, written to a file, its path returned.

import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { renderStatusComment } from "../../comments/status-comment.js";
import { isLiveState } from "../../protocol/fsm.js";
import { jobPaths } from "../../records/job-paths.js";
import { PHASES } from "../../skills/phases.js";
import { priceOf, resolveModel } from "../../wiring/index.js";
import { CliError } from "../cli-error.js";
import { gitText, gitTry } from "../git-text.js";
import { renderInspect } from "../inspect-render.js";
import { readJobRecords } from "../job-records.js";
import { readJobView } from "../job-view.js";
import { createLiveLog } from "../live-log.js";
import { nextStep } from "../next-step.js";
import { shellWord } from "../resolve-repo.js";
import { renderTask } from "../task-render.js";
import { renderWatch } from "../watch-render.js";
import { renderJobPage } from "./job-page.js";
import { mermaidMissing, mermaidScript } from "./mermaid-script.js";

export interface WrittenPage {
  path: string;
  /** False when mermaid is not installed: the page shows the diagrams' source. */
  drawn: boolean;
  /** When not drawn: why, and the one command that fixes it (mermaid-script.ts). */
  missing: string;
}

/** Where a job's page goes by default: beside the local forge, out of the work tree. */
export async function defaultPagePath(repoDir: string, n: number): Promise<string> {
  const common = (await gitText(repoDir, ["rev-parse", "--git-common-dir"])).trim();
  return join(resolve(repoDir, common), "cfa-local", `job-${n}.html`);
}

export async function writeJobPage(
  repoDir: string,
  n: number,
  options: { out?: string; cli: string; now: Date },
): Promise<WrittenPage> {
  const texts = await readJobRecords(repoDir, n);
  if (texts === null)
    throw new CliError(`there is no job #${n} in ${repoDir} (no branch cfa/${n}).`);
  const view = readJobView(texts);
  if (view.job === null || view.engine === null) {
    throw new CliError(`job #${n} has no state record on ${texts.ref} yet: nothing to show.`);
  }
  const paths = jobPaths(n);
  const artifactNames = (["INTENT", "PLAN", "EXECUTE"] as const)
    .map((state) => PHASES[state].artifact)
    .filter((name) => texts.files.includes(paths.artifact(name)));
  const artifacts = await Promise.all(
    artifactNames.map(async (name) => {
      const path = paths.artifact(name);
      return {
        name,
        path,
        text: (await gitTry(repoDir, ["show", `${texts.head}:${path}`])) ?? "",
        show: `git -C ${shellWord(repoDir)} show ${texts.ref}:${path}`,
      };
    }),
  );
  const repoArg = ` --repo ${shellWord(repoDir)}`;
  const waiting = nextStep(view, { cli: options.cli, repoArg });
  // The page shows the commands of where the job lives: a local job's `cfa` verbs, a job on
  // GitHub (its branch fetched into a clone) the slash commands of its issue.
  const local = await isLocalJob(repoDir, n);
  const verb = (v: string, rest = "") => `\`${options.cli} ${v} ${n}${rest}${repoArg}\``;
  const status = renderStatusComment({
    job: view.job,
    engine: view.engine,
    waitingOn: waiting[0] ?? view.job.state,
    links: { artifacts: artifacts.map((a) => ({ name: a.name, url: `#artifact-${a.name}` })) },
    history: false,
    icons: false,
    ...(local
      ? {
          verbs: {
            resume: verb("resume"),
            line: `Commands: ${verb("approve")} or ${verb("reject", ' --comment "…"')} at a gate · ${verb("answer", ' --id qN "…"')} · ${verb("intervene", ' "…"')} · ${verb("pause")} · ${verb("resume")} · ${verb("withdraw")}.`,
          },
        }
      : {}),
  });
  const log = createLiveLog({ verbose: true });
  const history = [...renderWatch(view).flatMap((l) => log.push(l)), ...log.end()];
  const tasks = Object.entries(view.engine.tasks)
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([id, meta]) => ({ id, status: meta.status, lines: renderTask(view, id) ?? [] }));
  const mermaid = await mermaidScript();
  const html = renderJobPage({
    job: n,
    title: view.job.title,
    state: `${view.job.state}${isLiveState(view.job.state) && view.engine.paused ? " (paused)" : ""}`,
    ref: texts.ref,
    head: texts.head,
    status,
    history,
    tree: renderInspect(view, { resolveModel, price: priceOf }),
    tasks,
    artifacts,
    mermaid,
    ...(mermaid === null ? { missing: mermaidMissing() } : {}),
    writtenAt: options.now.toISOString(),
  });
  const path = options.out ?? (await defaultPagePath(repoDir, n));
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, html);
  return { path, drawn: mermaid !== null, missing: mermaid === null ? mermaidMissing() : "" };
}

/** Whether job `n` is an issue of the repository's local forge (else: a job on GitHub). */
async function isLocalJob(repoDir: string, n: number): Promise<boolean> {
  const forge = join(dirname(await defaultPagePath(repoDir, n)), "forge.json");
  try {
    const doc = JSON.parse(await readFile(forge, "utf8")) as { issues?: { number?: unknown }[] };
    return (doc.issues ?? []).some((issue) => issue.number === n);
  } catch {
    return false;
  }
}
