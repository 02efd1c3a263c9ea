// The run's summary page (GITHUB_STEP_SUMMARY): a few lines a person reads after the run.

import { appendFile } from "node:fs/promises";

export function stepSummary(path: string | undefined): (markdown: string) => Promise<void> {
  return async (markdown) => {
    if (path === undefined) return;
    await appendFile(path, `${markdown}\n`);
  };
}
