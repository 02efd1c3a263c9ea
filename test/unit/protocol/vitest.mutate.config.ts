// The test set Stryker runs against each mutant of the state machine (stryker.config.json):
// the protocol's unit tests, without the ones that run whole jobs on git
// (termination-wake) or exercise the file boundary (sandbox-integrity) — they do not
// test these files' lines any better and would make one mutation run take an hour.

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/protocol/**/*.test.ts"],
    exclude: [
      "test/unit/protocol/termination-wake.property.test.ts",
      "test/unit/protocol/sandbox-integrity.property.test.ts",
    ],
    testTimeout: 60_000,
    pool: "forks",
  },
});
