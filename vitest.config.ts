import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // git, bwrap and nock-driven integration tests spawn processes; give them room on a
    // shared 2-core machine rather than asserting on wall time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core
    // machine, which then sits idle while each test waits on the git, bwrap and node
    // processes it spawned. Two files at a time keep both cores busy (issue 16: the suite
    // under 10 minutes here); larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
