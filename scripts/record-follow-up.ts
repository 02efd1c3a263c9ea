// Makes recordings/follow-up.json with the recorder itself (`--record`), never by hand: the
// demo's job run to DONE, then a review that requests a change with one inline comment, and
// the follow-up it starts (docs/protocol.md#jobs-and-states) through its gates and one task
// to DONE. Every step is a real `cfa` command (run, approve, reject …) on a fresh repository,
// its model the real Anthropic adapter talking over HTTP to the fake Messages API
// (test/support/fake-messages-api), which answers from a script: the demo's own responses
// (recordings/demo.json, whatever tool set it is made with) for the first job, and the
// follow-up's responses authored below. Commands the agents run (`npm test`) really run, in
// the sandbox, so the authored code must pass its tests.
//
//   npx tsx scripts/record-follow-up.ts [out]        (default recordings/follow-up.json)
//
// The file then replays without a model: `cfa replay recordings/follow-up.json`.

import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../src/cli/main.js";
import { captureIo } from "../test/support/cli/capture-io.js";
import { recordedJobApi } from "../test/support/fake-messages-api/recorded-job.js";
import { startFakeMessagesApi } from "../test/support/fake-messages-api/server.js";
import { makeTempRepo } from "../test/support/git/temp-repo.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEMO = join(ROOT, "recordings", "demo.json");

/** The person's review of the job's pull request after DONE: a body and one inline comment. */
export const REVIEW = {
  body: "One more thing before I merge: callers need to choose how a cut string ends.",
  inline: {
    path: "src/truncate.js",
    line: 13,
    text: 'The ellipsis is hard-coded. Take an optional third argument, `{ ellipsis = "…" }`, so callers can pass "..." or "" — and the result must still never be longer than n.',
  },
};

/** The follow-up's own task: an id of its own (an earlier round's may not be reused). */
const TASK = "truncate-marker";
const FU = ".cfa/jobs/1.2";

interface Step {
  expect?: { lastUserIncludes?: string; toolResultFor?: string };
  response: {
    content: Record<string, unknown>[];
    stopReason: "tool_use" | "end_turn";
    usage: {
      inputTokens: number;
      outputTokens: number;
      cacheReadTokens: number;
      cacheWriteTokens: number;
    };
  };
}

let ids = 0;
const use = (name: string, input: Record<string, unknown>) => ({
  type: "tool_use",
  id: `toolu_followup_${String(++ids).padStart(3, "0")}`,
  name,
  input,
});
/** A response calling `calls` (or saying `text`), with a plausible bill. */
function step(calls: Record<string, unknown>[] | string, expect?: Step["expect"], size = 1): Step {
  const content = typeof calls === "string" ? [{ type: "text", text: calls }] : calls;
  return {
    ...(expect === undefined ? {} : { expect }),
    response: {
      content,
      stopReason: typeof calls === "string" ? "end_turn" : "tool_use",
      usage: {
        inputTokens: 900 + 300 * size,
        outputTokens: 60 + 140 * size,
        cacheReadTokens: 2400 + 500 * size,
        cacheWriteTokens: 600,
      },
    },
  };
}

/** A lead's gate on its artifact, then its finish once the person approved it. */
function gated(artifact: string, question: string, outcome: string, reason: string): Step[] {
  return [
    step([use("ask_question", { kind: "gate", text: question, artifact: `${FU}/${artifact}` })]),
    step([use("finish", { outcome, reason })], {
      toolResultFor: "ask_question",
      lastUserIncludes: "approved by @ana",
    }),
  ];
}

const TRUNCATE = `/**
 * truncate("hello world", 8) → "hello w…": never longer than n characters, the marker
 * included; a string that fits comes back unchanged. Counts UTF-16 code units.
 * @param {string} text
 * @param {number} n
 * @param {{ ellipsis?: string }} [options] what ends a cut string (default "…")
 * @returns {string}
 */
export function truncate(text, n, { ellipsis = "…" } = {}) {
  const s = String(text);
  const marker = String(ellipsis);
  const max = Math.max(0, Math.floor(n));
  if (s.length <= max) return s;
  if (marker.length >= max) return marker.slice(0, max);
  return \`\${s.slice(0, max - marker.length)}\${marker}\`;
}
`;

const TRUNCATE_TEST = `import { test } from "node:test";
import assert from "node:assert/strict";
import { truncate } from "../src/truncate.js";

test("truncate cuts to n characters, the ellipsis included", () => {
  assert.equal(truncate("hello world", 8), "hello w…");
  assert.equal(truncate("hello world", 8).length, 8);
});

test("truncate leaves a string that fits unchanged", () => {
  assert.equal(truncate("hello", 8), "hello");
  assert.equal(truncate("hello", 5), "hello");
});

test("truncate handles the smallest limits", () => {
  assert.equal(truncate("hello", 1), "…");
  assert.equal(truncate("hello", 0), "");
});

test("truncate ends a cut string with the marker it is given, never longer than n", () => {
  assert.equal(truncate("hello world", 8, { ellipsis: "..." }), "hello...");
  assert.equal(truncate("hello world", 8, { ellipsis: "" }), "hello wo");
  assert.equal(truncate("hello world", 2, { ellipsis: "..." }), "..");
  assert.equal(truncate("hello", 8, { ellipsis: "..." }), "hello");
});
`;

const INTENT = `# Intent: truncate takes the marker it ends with

## Objective
@ana reviewed the pull request of job #1 and asked for one more change: \`truncate\` ends a
cut string with "…" and callers cannot choose another marker. Let them.

## Scope
- In: an optional third argument to \`truncate\`, \`{ ellipsis = "…" }\`; its tests.
- Out: the other helpers, \`src/index.js\` (the export does not change), new dependencies.

## Success criteria
- \`truncate("hello world", 8, { ellipsis: "..." })\` is \`"hello..."\`; with \`""\` it is \`"hello wo"\`.
- The result is never longer than n, whatever the marker (a marker longer than n is cut).
- Without the argument \`truncate\` behaves exactly as job #1 left it; its tests still pass.
- \`npm test\` passes.

## Constraints
- The style of job #1's helpers: one function, a JSDoc comment, \`node:test\`.

## Open questions
None.
`;

const PLAN = `# Plan: a marker for truncate

One task, \`${TASK}\`: \`src/truncate.js\` takes \`{ ellipsis = "…" }\` as its third argument
and \`test/truncate.test.js\` covers "...", "" and a marker longer than n, keeping job #1's
tests as they are. Success: the task's verifier sees \`npm test\` pass and the default
behaviour unchanged. Then WORK_SUMMARY.md.
`;

const SUMMARY = `# Work summary: truncate takes its marker

## Done
- \`truncate(text, n, { ellipsis = "…" })\` in \`src/truncate.js\`; tests in
  \`test/truncate.test.js\` (task \`${TASK}\`, verified: pass).

## Against INTENT.md
| success criterion | how it is met |
|---|---|
| "..." and "" as markers | \`test/truncate.test.js\` |
| never longer than n | a marker longer than n is cut (tested with n = 2) |
| default unchanged | job #1's tests pass unchanged |
| \`npm test\` passes | the verifier ran it |
`;

/** The follow-up's responses, per instance (its threads count on from job #1's). */
export function followUpScript(): Record<string, Step[]> {
  return {
    "intent-lead@state:intent:2": [
      step(
        [
          use("read_file", { path: "src/truncate.js" }),
          use("read_file", { path: "test/truncate.test.js" }),
        ],
        { lastUserIncludes: "The ellipsis is hard-coded" },
      ),
      step([use("write_file", { path: `${FU}/INTENT.md`, content: INTENT })], undefined, 3),
      ...gated(
        "INTENT.md",
        "INTENT.md for this follow-up is ready: truncate takes an optional marker, never longer than n, and behaves as before without it. Is this what you asked for?",
        "APPROVED_INTENT",
        "@ana approved the follow-up's INTENT.md: a marker argument for truncate.",
      ),
    ],
    "project-lead@state:plan:2": [
      step([use("read_file", { path: `${FU}/INTENT.md` })], {
        lastUserIncludes: "You lead the PLAN phase of job #1 (entry 2)",
      }),
      step([use("write_file", { path: `${FU}/PLAN.md`, content: PLAN })], undefined, 2),
      ...gated(
        "PLAN.md",
        `PLAN.md is ready: one task, ${TASK}, for src/truncate.js and its tests. Approve?`,
        "APPROVED_PLAN",
        "@ana approved PLAN.md: one task.",
      ),
    ],
    "project-lead@state:execute:2": [
      step(
        [
          use("read_file", { path: `${FU}/PLAN.md` }),
          use("dispatch", {
            id: TASK,
            brief:
              'Give `truncate(text, n)` in `src/truncate.js` an optional third argument `{ ellipsis = "…" }`: the marker that ends a cut string. The result is never longer than n, the marker included; a marker longer than n is cut to n. Without the argument nothing changes. Add tests to `test/truncate.test.js` for "...", "" and a marker longer than n; keep the existing tests as they are. Run `npm test`.',
          }),
        ],
        { lastUserIncludes: "You lead the EXECUTE phase of job #1 (entry 2)" },
      ),
      step(`Dispatched ${TASK}; I close it when its worker reports.`),
      step([use("close", { task: TASK })], {
        lastUserIncludes: `Message from worker@dispatch:${TASK}`,
      }),
      step([use("write_file", { path: `${FU}/WORK_SUMMARY.md`, content: SUMMARY })], undefined, 2),
      ...gated(
        "WORK_SUMMARY.md",
        "WORK_SUMMARY.md is ready: truncate takes its marker, verified and merged. Approve the work?",
        "APPROVED_WORK",
        "@ana approved WORK_SUMMARY.md: truncate takes the marker it ends with.",
      ),
    ],
    [`worker@dispatch:${TASK}`]: [
      step(
        [
          use("write_file", { path: "src/truncate.js", content: TRUNCATE }),
          use("write_file", { path: "test/truncate.test.js", content: TRUNCATE_TEST }),
        ],
        { lastUserIncludes: "Your task" },
        3,
      ),
      step([use("run_command", { argv: ["npm", "test"] })]),
      step([
        use("reply", {
          text: `${TASK} is done: truncate takes { ellipsis = "…" }, a marker longer than n is cut to n, and without it nothing changes. test/truncate.test.js covers "...", "" and n = 2. \`npm test\` passes.`,
        }),
      ]),
      step("Done."),
    ],
    [`verifier@verify:${TASK}-1`]: [
      step(
        [
          use("read_file", { path: "src/truncate.js" }),
          use("read_file", { path: "test/truncate.test.js" }),
          use("run_command", { argv: ["npm", "test"] }),
        ],
        { lastUserIncludes: `Verify task \`${TASK}\` of job #1.` },
      ),
      step([
        use("verdict", {
          verdict: "pass",
          issues: [],
          notes:
            "truncate takes the marker as the brief says, never longer than n; the old tests pass unchanged and the new ones cover each case. `npm test` passes.",
        }),
      ]),
    ],
  };
}

interface DemoFile {
  request: { title: string; body: string };
  files: Record<string, string>;
  recording: { version: number; instances: Record<string, Step[]> };
  people: { action: "approve" | "reject"; text?: string }[];
}

async function record(out: string): Promise<void> {
  const demo = JSON.parse(await readFile(DEMO, "utf8")) as DemoFile;
  const api = recordedJobApi({
    instances: { ...demo.recording.instances, ...followUpScript() },
  } as never);
  const server = await startFakeMessagesApi((request) => api.respond(request));
  const temp = makeTempRepo({
    prefix: "cfa-record-follow-up-",
    identity: { name: "ana", email: "ana@example.com" },
    files: demo.files,
  });
  const io = captureIo({
    cwd: temp.repo,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME,
      ANTHROPIC_API_KEY: "sk-ant-api03-fake-key-for-the-local-server",
      ANTHROPIC_BASE_URL: server.url,
    },
    workRoot: join(temp.root, "work"),
    // The script's responses assume the order they are listed in, as a replay applies them.
    applyOrder: "started",
  });
  const cfa = async (...argv: string[]) => {
    const code = await main([...argv, "--record", out], io);
    if (code !== 0) {
      throw new Error(`cfa ${argv.join(" ")} exited ${code}:\n${io.err()}\n${io.out()}`);
    }
  };
  try {
    if (existsSync(out)) await rm(out);
    await cfa("run", demo.request.body, "--title", demo.request.title);
    for (const person of demo.people) {
      if (person.action === "approve") await cfa("approve", "1");
      else await cfa("reject", "1", "--comment", person.text ?? "");
    }
    // The demo's job is DONE: the review that asks for more starts the follow-up.
    const { path, line, text } = REVIEW.inline;
    await cfa("reject", "1", "--comment", REVIEW.body, "--inline", `${path}:${line}:${text}`);
    for (let gate = 0; gate < 3; gate++) await cfa("approve", "1");
    const problems = api.conformance.problems;
    const unplayed = api.unplayed();
    if (problems.length > 0 || Object.keys(unplayed).length > 0) {
      throw new Error(
        `the recording is not whole: ${JSON.stringify({ problems, unplayed }, null, 2)}`,
      );
    }
    const file = JSON.parse(await readFile(out, "utf8")) as Record<string, unknown>;
    await writeFile(
      out,
      `${JSON.stringify(
        {
          version: file["version"],
          description:
            "The demo's job to DONE, then a review that requests a change with one inline comment: the follow-up it starts (round 2, .cfa/jobs/1.2/) runs from INTENT through its gates and one task to DONE, on the same branch and pull request. Made by scripts/record-follow-up.ts with --record.",
          ...Object.fromEntries(Object.entries(file).filter(([k]) => k !== "version")),
        },
        null,
        2,
      )}\n`,
    );
    process.stdout.write(`${io.out()}\nwrote ${out}\n`);
  } finally {
    await server.close();
    temp.cleanup();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(ROOT, "recordings", "follow-up.json"));
  record(out).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
