// The end of `cfa demo`: where the job's records and work are, as commands to paste.

import type { JobView } from "./job-view.js";
import type { ReplayRun } from "./run-replay.js";

export function whereToLook(o: {
  run: ReplayRun;
  view: JobView | null;
  cli: string;
  seconds: number;
  /** The job's page (`cfa show`), when it was written. */
  page?: string | undefined;
}): string[] {
  const repo = o.run.repoDir;
  const n = o.run.job;
  const g = `git -C ${repo}`;
  const artifacts = (o.view?.files ?? []).filter((f) =>
    /\/(INTENT|PLAN|WORK_SUMMARY)\.md$/.test(f),
  );
  const rows: [string, string][] = [
    ["the repository", repo],
    ["the job's history", `${g} log --oneline --graph cfa/${n}`],
    ["what the job changed", `${g} diff main cfa/${n} -- . ':!.cfa'`],
    ...artifacts.map((f, i): [string, string] => [
      i === 0 ? "the artifacts" : "",
      `${g} show cfa/${n}:${f}`,
    ]),
    ...(o.page === undefined ? [] : [["the job's page", o.page] as [string, string]]),
    ["the tree, tokens, cost", `${o.cli} inspect ${n} --repo ${repo}`],
    ["the log with task lines", `${o.cli} watch ${n} --verbose --repo ${repo}`],
    ["every record", `${g} ls-tree -r --name-only cfa/${n} .cfa/jobs/${n}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `Replayed in ${o.seconds.toFixed(1)} s with no model and no network. Where to look:`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
  ];
}
