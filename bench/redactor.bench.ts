// The redactor's cost: it looks for every form of every secret (encoded,
// recased, spaced, split, escaped) in a text's skeleton. Measured on a 1 MiB text of log- and
// JSON-like lines with a few escapes in it, holding 8 secrets, against the floor measured in
// the same run: a plain scan of the same text for the same 8 literal values (`indexOf`),
// which is what the literal-only redactor did. A second row: what looking for parts of the
// secrets, reversed and respelled (fragment-index.ts) costs over their whole forms alone.

import { randomBytes } from "node:crypto";
import { Redactor } from "../src/secrets/index.js";
import { median, timeRuns, type BenchResult } from "./bench-result.js";

const RUNS = 9;
const SIZE = 1 << 20;

function text(): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < SIZE; i += 1) {
    const line =
      i % 3 === 0
        ? `2026-11-24T10:00:${String(i % 60).padStart(2, "0")}Z #12 worker TOOL read_file src/module-${i}.ts (2,${i % 1000} bytes)`
        : i % 3 === 1
          ? JSON.stringify({
              type: "tool_result",
              tool_use_id: `toolu_${i}`,
              content: `line ${i}\n\tindented "quoted" \\ value`,
            })
          : `  export function handler${i}(request: Request): Promise<Response> { return fetch(request.url, { method: "GET" }); }`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

export function run(): Promise<BenchResult[]> {
  const secrets = Array.from({ length: 8 }, () => `ghs_${randomBytes(27).toString("base64url")}`);
  const redactor = new Redactor(secrets);
  const wholeOnly = new Redactor(secrets, undefined, { fragments: false });
  const body = text();
  const scan = timeRuns(RUNS, () => {
    for (const secret of secrets) if (body.indexOf(secret) >= 0) throw new Error("planted?");
  });
  const redact = timeRuns(RUNS, () => {
    if (redactor.redact(body) !== body) throw new Error("nothing to redact expected");
  });
  const whole = timeRuns(RUNS, () => {
    if (wholeOnly.redact(body) !== body) throw new Error("nothing to redact expected");
  });
  const floor = median(scan);
  const cost = median(redact);
  const mib = body.length / SIZE;
  return Promise.resolve<BenchResult[]>([
    {
      name: "redact 1 MiB, 8 secrets in every form (ratio to a plain scan for the 8 values)",
      unit: "× plain scan",
      median: cost / floor,
      runs: RUNS,
      extra: {
        redactMsPerMiB: cost / mib,
        scanMsPerMiB: floor / mib,
        forms: secrets.length,
      },
    },
    {
      name: "redact 1 MiB with parts, reversed and respelled forms (ratio to whole forms alone)",
      unit: "× whole forms",
      median: cost / median(whole),
      runs: RUNS,
      extra: { wholeMsPerMiB: median(whole) / mib },
    },
  ]);
}
