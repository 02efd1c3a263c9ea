// One test's worth of GitHub mocking: network refused, every intercepted request validated
// and recorded, unmatched requests caught. `verify()` is the afterEach check that every
// HTTP-mocked test ends with: all mocks consumed, nothing unmatched, every request valid.

import nock from "nock";
import { takeBodyMismatches } from "./expect-body.js";
import { forgetGitHubScopes } from "./nock-github.js";
import {
  recordAndValidate,
  type GitHubRecorder,
  type RecordOptions,
} from "./record-and-validate.js";

export interface GitHubMockSession {
  readonly recorder: GitHubRecorder;
  /** Requests nock had no interceptor for, as `METHOD url`. */
  unmatched(): string[];
  /**
   * Throws one error listing pending mocks, unmatched requests and invalid requests, if
   * any; always cleans nock up (so one failing test does not leak mocks into the next).
   */
  verify(): void;
}

// nock emits "no match" with (req, options, body) or with (options) alone.
interface UnmatchedRequest {
  readonly method?: string;
  readonly path?: string;
  readonly href?: string;
  readonly host?: string;
  readonly hostname?: string;
}

function describeUnmatched(args: readonly unknown[]): string {
  const [first, second] = args as [UnmatchedRequest | undefined, UnmatchedRequest | undefined];
  const method = (first?.method ?? second?.method ?? "GET").toUpperCase();
  const host = second?.hostname ?? second?.host ?? first?.hostname ?? first?.host ?? "";
  const path = first?.path ?? second?.path ?? first?.href ?? "?";
  return `${method} ${host}${path}`;
}

export function startGitHubMockSession(options: RecordOptions = {}): GitHubMockSession {
  nock.disableNetConnect();
  takeBodyMismatches();
  const unmatched: string[] = [];
  const onNoMatch = (...args: unknown[]): void => {
    unmatched.push(describeUnmatched(args));
  };
  nock.emitter.on("no match", onNoMatch);
  const recorder = recordAndValidate(undefined, options);

  return {
    recorder,
    unmatched: () => [...unmatched],
    verify() {
      try {
        const problems: string[] = [];
        const pending = nock.pendingMocks();
        if (pending.length > 0) {
          problems.push(`mocks never called:\n${pending.map((m) => `    ${m}`).join("\n")}`);
        }
        if (unmatched.length > 0) {
          const why = takeBodyMismatches();
          problems.push(
            `requests no mock matched:\n${unmatched.map((u) => `    ${u}`).join("\n")}` +
              (why.length > 0
                ? `\n  body mismatches seen:\n${why.map((w) => `    ${w}`).join("\n")}`
                : ""),
          );
        }
        for (const error of recorder.invalid()) problems.push(error.message);
        if (problems.length > 0) {
          throw new Error(
            `cfa/testkit: the GitHub mocks were not used as declared:\n  - ${problems.join("\n  - ")}`,
          );
        }
      } finally {
        nock.emitter.off("no match", onNoMatch);
        recorder.stop();
        nock.cleanAll();
        forgetGitHubScopes();
        takeBodyMismatches();
      }
    },
  };
}
