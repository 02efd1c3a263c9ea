// GitHub jobs for the tests of a describe block (or a file), as useLocalJobs is for local
// ones: `newJob` makes one (createGitHubJob's options) and it is removed after the test
// that made it.

import { useCleanedUp } from "../use-cleaned-up.js";
import { createGitHubJob } from "./github-job.js";

export const useGitHubJobs = () => useCleanedUp(createGitHubJob);
