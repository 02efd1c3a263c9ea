// Local jobs for the tests of a describe block (or a file): `newJob` makes one
// (createLocalJob's options) and it is removed after the test that made it.

import { afterEach } from "vitest";
import { createLocalJob, type LocalJob } from "./local-job.js";

export function useLocalJobs(): (
  options: Parameters<typeof createLocalJob>[0],
) => Promise<LocalJob> {
  const made: LocalJob[] = [];
  afterEach(async () => {
    for (const job of made.splice(0)) await job.cleanup();
  });
  return async (options) => {
    const job = await createLocalJob(options);
    made.push(job);
    return job;
  };
}
