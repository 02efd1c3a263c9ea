// The test set Stryker runs against each mutant of the state machine (stryker.config.json):
// the protocol's unit tests, without the bus's (protocol/bus/): they do not test these
// files' lines and would only make one mutation run longer. The properties that run whole
// jobs on git (termination-wake) or exercise the file boundary (sandbox-integrity) live
// beside what they test (test/unit/engine, test/unit/agents/boundary), outside this set.

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/protocol/**/*.test.ts"],
    exclude: ["test/unit/protocol/bus/**"],
    testTimeout: 60_000,
    pool: "forks",
  },
});
