// Local jobs for the tests of a describe block (or a file): `newJob` makes one
// (createLocalJob's options) and it is removed after the test that made it.

import { useCleanedUp } from "../use-cleaned-up.js";
import { createLocalJob } from "./local-job.js";

export const useLocalJobs = () => useCleanedUp(createLocalJob);
