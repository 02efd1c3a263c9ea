// GitHub's pace shrunk for tests: a `retry-after: 60` waits 60 ms, a retry's backoff is
// milliseconds, and content-creating requests are not spaced. The plugins are the real ones.

import type { GitHubPacing } from "../../../src/worker/github-client.js";

export const TEST_PACING: GitHubPacing = { secondMs: 1, writeIntervalMs: 0 };
