// The JVM's build tools: Maven's Surefire (and Failsafe, which prints the same) and Gradle.

import { summed, tally, type RunnerParser } from "./counts.js";
import { everyMatch, int, linePattern, N } from "./linear.js";

// Each module's "Results:" block ends in "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"
// (apache/maven-site content/markdown/guides/getting-started/index.md); the per-class lines
// before it add ", Time elapsed: … - in <class>" and are not counted, so a multi-module build
// sums its modules' result lines.
const SUREFIRE = linePattern(
  String.raw`(?:\[(?:INFO|ERROR|WARNING)\] )?Tests run: ${N}, Failures: ${N}, Errors: ${N}, Skipped: ${N}(?:, Flakes: \d{1,7})?`,
);

export const surefire: RunnerParser = (lines) =>
  summed(
    everyMatch(lines, (l) => l.includes("Tests run: "), SUREFIRE).map(({ m, at }) => {
      const [run, failures, errors, skipped] = [int(m[1]), int(m[2]), int(m[3]), int(m[4])];
      return {
        counts: tally(Math.max(0, run - failures - errors - skipped), failures + errors, skipped),
        at,
      };
    }),
  );

// Gradle's TestCountLogger prints "3 tests completed, 1 failed, 1 skipped" when a test task
// has failures, and nothing when all pass (gradle/gradle subprojects/testing-base/src/main/
// java/org/gradle/api/internal/tasks/testing/logging/TestCountLogger.java): a green Gradle
// run has no count to show. Each failing test task prints its own line; they are summed.
const GRADLE = linePattern(String.raw`${N} tests? completed(?:, ${N} failed)?(?:, ${N} skipped)?`);

export const gradle: RunnerParser = (lines) =>
  summed(
    everyMatch(lines, (l) => l.includes(" completed"), GRADLE).map(({ m, at }) => {
      const [total, failed, skipped] = [int(m[1]), int(m[2]), int(m[3])];
      return { counts: tally(Math.max(0, total - failed - skipped), failed, skipped), at };
    }),
  );
