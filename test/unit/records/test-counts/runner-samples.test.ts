// Every runner a team uses, read from its own output: each sample is quoted from the
// runner's documentation or repository (named beside it) or is the runner's own output on
// this machine (test/fixtures/test-runners/README.md says how each was made).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testSummary } from "../../../../src/records/test-counts/index.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/test-runners/${name}`, import.meta.url), "utf8");

describe("Python", () => {
  it("unittest: 'Ran 3 tests … OK' (docs.python.org/3/library/unittest.html, basic example)", () => {
    const sample =
      "...\n----------------------------------------------------------------------\nRan 3 tests in 0.000s\n\nOK\n";
    expect(testSummary(sample)).toBe("3 passed");
  });

  it("unittest: 'OK (skipped=4)' (the same page, skipping tests)", () => {
    const sample = [
      "test_format (__main__.MyTestCase.test_format) ... skipped 'not supported in this library version'",
      "test_nothing (__main__.MyTestCase.test_nothing) ... skipped 'demonstrating skipping'",
      "test_maybe_skipped (__main__.MyTestCase.test_maybe_skipped) ... skipped 'external resource not available'",
      "test_windows_support (__main__.MyTestCase.test_windows_support) ... skipped 'requires Windows'",
      "",
      "----------------------------------------------------------------------",
      "Ran 4 tests in 0.005s",
      "",
      "OK (skipped=4)",
    ].join("\n");
    expect(testSummary(sample)).toBe("0 passed, 4 skipped");
  });

  it("unittest: 'FAILED (failures=1, errors=1, skipped=1)' (python3 -m unittest, fixture)", () => {
    // On stderr, as unittest writes it.
    expect(testSummary(["", fixture("unittest-failures.txt")])).toBe(
      "2 failed, 1 passed, 1 skipped",
    );
  });

  it("pytest: the bar line (python3 -m pytest, fixture)", () => {
    expect(testSummary(fixture("pytest-failures.txt"))).toBe("2 failed, 1 passed, 1 skipped");
  });

  it("pytest -q: the line without bars, old 'seconds' (pytest-dev/pytest doc/en/getting-started.rst)", () => {
    const sample = "    test_class.py:8: AssertionError\n    1 failed, 1 passed in 0.12 seconds\n";
    expect(testSummary(sample)).toBe("1 failed, 1 passed");
  });

  it("pytest with xdist: workers' progress, then pytest's own line (pytest-dev/pytest-xdist src/xdist/dsession.py)", () => {
    // Under -q xdist says "bringing up nodes..."; otherwise "created: 4/4 workers" and
    // "4 workers [54 items]"; the summary is pytest's.
    const sample = [
      "created: 4/4 workers",
      "4 workers [54 items]",
      "",
      "........................................................................ [ 92%]",
      "......                                                                   [100%]",
      "============================== 53 passed, 1 error in 4.02s ==============================",
    ].join("\n");
    expect(testSummary(sample)).toBe("1 failed, 53 passed");
    expect(
      testSummary("bringing up nodes...\n\n...                 [100%]\n3 passed in 14.72s\n"),
    ).toBe("3 passed");
  });
});

describe("Rust", () => {
  it("cargo test: one crate (rust-lang/book listings/ch11-writing-automated-tests/listing-11-03/output.txt)", () => {
    const sample = [
      "running 2 tests",
      "test tests::another ... FAILED",
      "test tests::exploration ... ok",
      "",
      "failures:",
      "    tests::another",
      "",
      "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
      "",
      "error: test failed, to rerun pass `--lib`",
    ].join("\n");
    expect(testSummary(sample)).toBe("1 failed, 1 passed");
  });

  it("cargo test --workspace: every crate's and doc-test's line, summed (fixture)", () => {
    expect(testSummary(fixture("cargo-test-workspace.txt"))).toBe("1 failed, 4 passed, 1 skipped");
  });

  it("cargo nextest (nextest-rs/nextest …displayer__imp__tests__summary_line_output.snap)", () => {
    expect(
      testSummary("────────────\n     Summary [   2.000s] 5 tests run: 5 passed, 0 skipped\n"),
    ).toBe("5 passed");
    expect(
      testSummary(
        "     Summary [  15.750s] 8/10 tests run: 5 passed (1 slow, 1 flaky, 1 leaky), 2 failed, 1 exec failed, 1 timed out, 2 skipped\nwarning: 2/10 tests were not run due to signal\n",
      ),
    ).toBe("4 failed, 5 passed, 2 skipped");
  });
});

describe("Go", () => {
  // golang/website _content/doc/tutorial/add-a-test.html (tabs as go prints them).
  it("go test: packages, when only failures are named", () => {
    expect(testSummary("PASS\nok  \texample.com/greetings\t0.364s\n")).toBe("1 package(s) ok");
    const failing = [
      "--- FAIL: TestHelloName (0.00s)",
      '    greetings_test.go:15: Hello("Gladys") = "Hail, %v! Well met!", <nil>, want match for `\\bGladys\\b`, nil',
      "FAIL",
      "exit status 1",
      "FAIL\texample.com/greetings\t0.182s",
    ].join("\n");
    expect(testSummary(failing)).toBe("1 package(s) failed, 0 package(s) ok");
  });

  it("go test -v: tests, over several packages", () => {
    const sample = [
      "=== RUN   TestHelloName",
      "--- PASS: TestHelloName (0.00s)",
      "=== RUN   TestHelloEmpty",
      "--- PASS: TestHelloEmpty (0.00s)",
      "PASS",
      "ok  \texample.com/greetings\t0.372s",
      "=== RUN   TestParse",
      "=== RUN   TestParse/empty",
      "    --- SKIP: TestParse/empty (0.00s)",
      "--- FAIL: TestParse (0.00s)",
      "FAIL",
      "FAIL\texample.com/parse\t0.010s",
    ].join("\n");
    expect(testSummary(sample)).toBe("1 failed, 2 passed, 1 skipped");
  });
});

describe("the JVM", () => {
  it("Maven Surefire: the Results line, not the per-class one (apache/maven-site content/markdown/guides/getting-started/index.md)", () => {
    const sample = [
      "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.025 s - in com.mycompany.app.AppTest",
      "[INFO] ",
      "[INFO] Results:",
      "[INFO] ",
      "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0",
      "[INFO] ",
      "[INFO] BUILD SUCCESS",
    ].join("\n");
    expect(testSummary(sample)).toBe("1 passed");
  });

  it("Maven Surefire: a multi-module build sums its modules", () => {
    const sample = [
      "[INFO] Results:",
      "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 2",
      "[INFO] --- maven-jar-plugin:3.0.2:jar (default-jar) @ core ---",
      "[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 0",
      "[INFO] BUILD FAILURE",
    ].join("\n");
    expect(testSummary(sample)).toBe("2 failed, 12 passed, 2 skipped");
  });

  it("Gradle: 'N tests completed, F failed, S skipped' (gradle/gradle …/testing/logging/TestCountLogger.java)", () => {
    const sample =
      "AuthorNameNormalizerTest > returns empty string when empty() FAILED\n    kotlin.NotImplementedError at AuthorNameNormalizerTest.kt:10\n\n9 tests completed, 1 failed, 8 skipped\n\nFAILURE: Build failed with an exception.\n";
    expect(testSummary(sample)).toBe("1 failed, 0 passed, 8 skipped");
    // A green Gradle run prints no count at all.
    expect(
      testSummary("> Task :test\n\nBUILD SUCCESSFUL in 4s\n3 actionable tasks: 3 executed\n"),
    ).toBeNull();
  });
});

describe("Ruby", () => {
  it("RSpec (rspec/rspec-core README.md)", () => {
    expect(
      testSummary(
        "$ rspec spec/calculator_spec.rb\n.\n\nFinished in 0.000315 seconds\n1 example, 0 failures\n",
      ),
    ).toBe("1 passed");
    // lib/rspec/core/notifications.rb, SummaryNotification#totals_line.
    expect(
      testSummary(
        "Finished in 0.1 seconds (files took 0.2 seconds to load)\n5 examples, 1 failure, 1 pending\n",
      ),
    ).toBe("1 failed, 3 passed, 1 skipped");
  });

  it("minitest: '%d runs, %d assertions, %d failures, %d errors, %d skips' (minitest lib/minitest.rb)", () => {
    const sample =
      "Finished in 0.015343s, 130.3526 runs/s, 130.3526 assertions/s.\n2 runs, 2 assertions, 1 failures, 0 errors, 0 skips\n";
    expect(testSummary(sample)).toBe("1 failed, 1 passed");
  });
});

describe("PHP", () => {
  it("PHPUnit (docs.phpunit.de, Writing Tests for PHPUnit)", () => {
    expect(
      testSummary("..\n\nTime: 0 seconds, Memory: 5.75Mb\n\nOK (2 tests, 2 assertions)\n"),
    ).toBe("2 passed");
    const failing = [
      "There was 1 failure:",
      "",
      "1) OutputTest::testExpectBarActualBaz",
      "Failed asserting that two strings are equal.",
      "",
      "FAILURES!",
      "Tests: 2, Assertions: 2, Failures: 1.",
    ].join("\n");
    expect(testSummary(failing)).toBe("1 failed, 1 passed");
    expect(
      testSummary(
        "ERRORS!\nTests: 6, Assertions: 4, Errors: 1, Failures: 1, Skipped: 1, Incomplete: 1.\n",
      ),
    ).toBe("2 failed, 2 passed, 2 skipped");
  });
});

describe("C and C++", () => {
  it("ctest: 'P% tests passed, F tests failed out of N' (fixture)", () => {
    expect(testSummary(fixture("ctest-one-failed.txt"))).toBe("1 failed, 2 passed");
  });
});

describe("JavaScript", () => {
  it("vitest (vitest-dev/vitest docs/guide/index.md)", () => {
    const sample =
      " ✓ sum.test.js (1)\n   ✓ adds 1 + 2 to equal 3\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n   Start at  02:15:44\n   Duration  311ms\n";
    expect(testSummary(sample)).toBe("1 passed");
    expect(testSummary("      Tests  1 failed | 31 passed | 2 skipped (34)")).toBe(
      "1 failed, 31 passed, 2 skipped",
    );
  });

  it("jest (jestjs/jest packages/jest-reporters/src/getSummary.ts)", () => {
    const sample =
      "Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 passed, 2 total\nSnapshots:   0 total\nTime:        0.282 s, estimated 1 s\nRan all test suites.\n";
    expect(testSummary(sample)).toBe("1 failed, 1 passed");
  });

  it("mocha's epilogue (mochajs/mocha lib/reporters/base.js)", () => {
    expect(
      testSummary("  Array\n    #indexOf()\n      ✔ should return -1\n\n\n  1 passing (9ms)\n"),
    ).toBe("1 passed");
    expect(
      testSummary("  3 passing (12ms)\n  1 pending\n  2 failing\n\n  1) Array\n       fails:\n"),
    ).toBe("2 failed, 3 passed, 1 skipped");
  });

  it("bun test (oven-sh/bun docs/cli/test.md)", () => {
    expect(
      testSummary(" --seed=12345\n 2 pass\n 8 fail\nRan 10 tests across 2 files. [50.00ms]\n"),
    ).toBe("8 failed, 2 passed");
  });

  it("node --test, spec reporter in colour (nodejs/node test/fixtures/test-runner/output/default_output.snapshot)", () => {
    const sample = [
      "\u001b[34mℹ tests 6\u001b[39m",
      "\u001b[34mℹ suites 0\u001b[39m",
      "\u001b[34mℹ pass 1\u001b[39m",
      "\u001b[34mℹ fail 3\u001b[39m",
      "\u001b[34mℹ cancelled 1\u001b[39m",
      "\u001b[34mℹ skipped 1\u001b[39m",
      "\u001b[34mℹ todo 0\u001b[39m",
      "\u001b[34mℹ duration_ms *\u001b[39m",
      "",
      "\u001b[31m✖ failing tests:\u001b[39m",
    ].join("\n");
    expect(testSummary(sample)).toBe("4 failed, 1 passed, 1 skipped");
  });

  it("node --test, TAP reporter", () => {
    expect(
      testSummary(
        "# tests 3\n# suites 0\n# pass 2\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n",
      ),
    ).toBe("1 failed, 2 passed");
  });
});

describe("the plain line", () => {
  it("'N passed, N failed', as this repository's .ci/run prints it", () => {
    expect(testSummary("noise\n12 passed, 0 failed\n")).toBe("12 passed");
    expect(testSummary("tests: 3 passed, 1 failed, 2 skipped")).toBe(
      "1 failed, 3 passed, 2 skipped",
    );
  });
});
