import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// The files that take a minute or so each, longest first. On a clean clone (CI) vitest has no
// timings cached and starts larger files first; these are small files over shared support
// code, so they started last and ran alone at the end (crash-resume's two shards from ~530 s
// to ~630 s of a 631 s run). Started first, they overlap the many short files instead.
const HEAVY = [
  "test/e2e/github/task-runs-processes.test.ts",
  "test/e2e/crash-resume/done-shard-2.test.ts",
  "test/e2e/crash-resume/done-shard-1.test.ts",
  "test/adversarial/deep-trees.test.ts",
  "test/e2e/no-barrier.property.test.ts",
  "test/e2e/task-run-subtasks.test.ts",
  "test/e2e/task-runs.test.ts",
  "test/e2e/github/task-runs-github.test.ts",
  "test/e2e/github/task-run-subtasks-github.test.ts",
  "test/integration/package/pack-install.test.ts",
];

class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = HEAVY.findIndex((h) => f.moduleId.endsWith(h));
      return i === -1 ? HEAVY.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // git, bwrap and nock-driven integration tests spawn processes; give them room on a
    // shared 2-core machine rather than asserting on wall time. These are the bounds on an
    // idle machine: each file scales them to the load it starts under
    // (test/support/time-bound.ts).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ["test/support/time-bound-setup.ts"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core
    // machine, which then sits idle while each test waits on the git, bwrap and node
    // processes it spawned. A file more than the cores keeps them busy through those waits:
    // on 2 cores the whole suite took 712 s with two workers and 581 s with three (quiet
    // machine, clean clone, `bash .ci/run`); larger machines keep the default.
    maxWorkers:
      availableParallelism() <= 2 ? availableParallelism() + 1 : availableParallelism() - 1,
    sequence: { sequencer: HeavyFirst },
  },
});
