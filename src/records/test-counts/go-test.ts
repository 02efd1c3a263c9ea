// `go test`: one "ok"/"FAIL" line per package; with -v also one "--- PASS/FAIL/SKIP:" line per
// test and sub-test (golang/website _content/doc/tutorial/add-a-test.html shows both). Plain
// output names only the failing tests, so it counts packages; -v counts tests.

import { tally, type Counts, type RunnerParser } from "./counts.js";
import { linePattern } from "./linear.js";

// "ok  \texample.com/greetings\t0.364s", "FAIL\texample.com/greetings\t0.182s", and "ok"
// with "(cached)" or "[no test files]"; a bare "FAIL" or "PASS" line is the binary's own.
const PACKAGE = linePattern(String.raw`(ok|FAIL)\s{1,8}[^\s]{1,300}(?:\s{1,8}.{0,80})?`);
const TEST = linePattern(String.raw`--- (PASS|FAIL|SKIP): [^\s]{1,300} \(\d{1,7}\.\d{1,4}s\)`);

export const goTest: RunnerParser = (lines) => {
  let ok = 0;
  let failedPackages = 0;
  const tests = { PASS: 0, FAIL: 0, SKIP: 0 };
  let at = -1;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (line.startsWith("--- ")) {
      const m = TEST.matcher(line);
      if (m.matches()) {
        tests[m.group(1) as keyof typeof tests] += 1;
        at = i;
      }
      continue;
    }
    if (!line.startsWith("ok") && !line.startsWith("FAIL\t") && !line.startsWith("FAIL ")) continue;
    const m = PACKAGE.matcher(line);
    if (!m.matches()) continue;
    if (m.group(1) === "ok") ok += 1;
    else failedPackages += 1;
    at = i;
  }
  if (at < 0 || ok + failedPackages === 0) return null;
  // -v prints a PASS line for every test that passed; plain output never does.
  const counts: Counts =
    tests.PASS > 0
      ? tally(tests.PASS, tests.FAIL, tests.SKIP)
      : { ...tally(ok, failedPackages, 0), unit: "package" };
  return { counts, at, additive: true };
};
