// For a file whose tests each start from a fresh git fixture with the job's workspace over it
// (and whatever the file sets up beside it): `make()` makes them, and they go after the test.

import { afterEach } from "vitest";
import { makeGitFixture, type GitFixture } from "./git-fixture.js";
import { jobWorkspace, type JobWorkspace } from "./job-workspace.js";

export type FixtureWorkspace = JobWorkspace & { fx: GitFixture };

export function useJobWorkspace<Extra extends object>(options: {
  /** limits.fileMiB in bytes, for the workspace and its JobRepo (see jobWorkspace). */
  limits?: { maxFileBytes?: number };
  /** What the tests need beside the repository, made under `fx.base`. */
  extra: (fx: GitFixture) => Extra;
  /** How the fixture is removed after the test; by default `fx.cleanup()`. */
  remove?: (fx: GitFixture) => void;
}): () => Promise<FixtureWorkspace & Extra> {
  let made: GitFixture | undefined;
  afterEach(() => {
    if (made) (options.remove ?? ((fx) => fx.cleanup()))(made);
    made = undefined;
  });
  return async () => {
    const fx = makeGitFixture();
    made = fx;
    const extra = options.extra(fx);
    return { fx, ...extra, ...(await jobWorkspace(fx, options.limits)) };
  };
}
