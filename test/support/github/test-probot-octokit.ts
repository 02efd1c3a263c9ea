// ProbotOctokit for tests: no retries, no throttling.
//
// README, "Things that bite": the object form
// `ProbotOctokit.defaults({ throttle: { enabled: false } })` is overwritten by Probot's own
// throttle options, so content-creating calls get spaced 3 s apart across the run and an
// unmatched nock call is retried for ~19 s. The function form runs after Probot's options are
// merged in, so `enabled: false` sticks.

import { ProbotOctokit } from "probot";

type OctokitOptions = NonNullable<ConstructorParameters<typeof ProbotOctokit>[0]>;

export const TestProbotOctokit = ProbotOctokit.defaults((options: OctokitOptions) => ({
  ...options,
  retry: { enabled: false },
  throttle: { ...options.throttle, enabled: false },
}));
