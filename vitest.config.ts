import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // git, bwrap and nock-driven integration tests spawn processes; give them room on a
    // shared 2-core machine rather than asserting on wall time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
