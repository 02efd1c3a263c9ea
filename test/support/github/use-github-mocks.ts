// Vitest wiring for a GitHub mock session: call once in a describe block (or a file) and
// every test in it starts a session and ends with session.verify() in afterEach.

import { afterEach, beforeEach } from "vitest";
import { startGitHubMockSession, type GitHubMockSession } from "./github-mock-session.js";
import type { GitHubRecorder, RecordOptions } from "./record-and-validate.js";

export interface GitHubMocks {
  /** The current test's session. */
  session(): GitHubMockSession;
  /** The current test's recorder: `calls()`, `bodies(operationId)`, ... */
  recorder(): GitHubRecorder;
  /** The operations the current test called, in order (`repos/get`, `graphql`; undefined: none matched). */
  operations(): (string | undefined)[];
}

export function useGitHubMocks(options: RecordOptions = {}): GitHubMocks {
  let current: GitHubMockSession | undefined;
  beforeEach(() => {
    current = startGitHubMockSession(options);
  });
  afterEach(() => {
    const session = current;
    current = undefined;
    session?.verify();
  });
  const session = (): GitHubMockSession => {
    if (current === undefined) {
      throw new Error(
        "cfa/testkit: useGitHubMocks() is only active inside a test (it starts in beforeEach)",
      );
    }
    return current;
  };
  return {
    session,
    recorder: () => session().recorder,
    operations: () =>
      session()
        .recorder.calls()
        .map((call) => call.operationId),
  };
}
