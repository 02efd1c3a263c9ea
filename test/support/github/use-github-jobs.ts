// GitHub jobs for the tests of a describe block (or a file), as useLocalJobs is for local
// ones: `newJob` makes one (createGitHubJob's options) and it is removed after the test
// that made it.

import { afterEach } from "vitest";
import { createGitHubJob } from "./github-job.js";

type GitHubJob = Awaited<ReturnType<typeof createGitHubJob>>;

export function useGitHubJobs(): (
  options: Parameters<typeof createGitHubJob>[0],
) => Promise<GitHubJob> {
  const made: GitHubJob[] = [];
  afterEach(async () => {
    for (const job of made.splice(0)) await job.cleanup();
  });
  return async (options) => {
    const job = await createGitHubJob(options);
    made.push(job);
    return job;
  };
}
