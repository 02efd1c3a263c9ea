// A job over a real Python project with the `bash-editor` tools: setup makes the project's
// virtual environment (`python3 -m venv .venv`) in every workspace; the worker runs the tests
// with `.venv/bin/python -m unittest` through the bash tool — no `sh -c`, no allowlist: it
// exports PYTHONPATH in one call and the next call runs with it (the session carries it), it
// writes the module and its tests with the editor — and the verifier runs them in one shell
// line. The job reaches DONE; each command is the evidence of its turn, and a program outside
// the role's command list is an audit line, not a refusal. The repository's AGENTS.md reaches
// every role's requests.

import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { wake } from "../../src/engine/index.js";
import type { CommandEvidence } from "../../src/records/command-evidence.js";
import type { ModelRequest } from "../../src/ports/model.js";
import { SYSTEM_PATH } from "../support/egress/egress-sandbox.js";
import { bwrapSuite, fixtureRoot } from "../support/sandbox/sandbox-fixtures.js";
import { createLocalJob, git, type LocalJob } from "../support/engine/local-job.js";
import { approve, openJob } from "../support/engine/person.js";
import { state } from "../support/engine/inspect.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { createArtifact, finish, gate } from "../support/engine/recordings.js";
import { createScriptedModel } from "../../src/adapters/scripted/index.js";
import { bound } from "../support/time-bound.js";

const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : null;
const { bit, skipped } = bwrapSuite(
  python === null ? null : undefined,
  "bubblewrap or /usr/bin/python3 is not installed",
);

const EDITOR = "str_replace_based_edit_tool";
const UNITTEST = ".venv/bin/python -m unittest discover -s tests";

const FILES = {
  ".gitignore": ".venv/\n__pycache__/\n",
  "AGENTS.md":
    "# Notes for agents\n\nThe tests: `PYTHONPATH=src .venv/bin/python -m unittest discover -s tests` (setup makes `.venv`).\nStandard library only.\n",
  "src/slug.py":
    'def slug(text):\n    """"Hello World" -> "hello-world"."""\n    return "-".join(str(text).lower().split())\n',
  "tests/test_slug.py":
    'import unittest\n\nfrom slug import slug\n\n\nclass SlugTest(unittest.TestCase):\n    def test_words(self):\n        self.assertEqual(slug("Hello World"), "hello-world")\n\n    def test_empty(self):\n        self.assertEqual(slug(""), "")\n',
  ".github/cfa.yml": [
    "escalation: { INTENT: never, PLAN: never }",
    "setup: [python3 -m venv --without-pip .venv]",
    // The worker's list names no python: it runs all the same, noted in the audit.
    "commands: { worker: [git, ls] }",
    "",
  ].join("\n"),
};

const TITLE_PY =
  'def title(text):\n    """"hello world" -> "Hello World"."""\n    return " ".join(w.capitalize() for w in str(text).split())\n';
const TITLE_TEST =
  'import unittest\n\nfrom title import title\n\n\nclass TitleTest(unittest.TestCase):\n    def test_words(self):\n        self.assertEqual(title("hello world"), "Hello World")\n\n    def test_one(self):\n        self.assertEqual(title("x"), "X")\n\n    def test_empty(self):\n        self.assertEqual(title(""), "")\n';

const answer = () => [tools(call("answer", { text: "approved" }))];

let job: LocalJob;
const requests: ModelRequest[] = [];

beforeAll(async () => {
  if (python === null) return;
  const script = {
    ...recording({
      "intent-lead@state:intent:1": [
        tools(call(EDITOR, { command: "view", path: "." })),
        createArtifact("INTENT.md", "# Intent\n\nA `title(text)` helper beside slug.\n"),
        gate("INTENT.md"),
        finish("APPROVED_INTENT"),
      ],
      "proxy@escalation:q1": answer(),
      "project-lead@state:plan:1": [
        createArtifact("PLAN.md", "# Plan\n\nOne task: title.\n"),
        gate("PLAN.md"),
        finish("APPROVED_PLAN"),
      ],
      "proxy@escalation:q2": answer(),
      "project-lead@state:execute:1": [
        tools(
          call("dispatch", { id: "title", brief: "Add title(text) in src/title.py with tests" }),
        ),
        say("Dispatched."),
        tools(call("close", { task: "title" })),
        createArtifact("WORK_SUMMARY.md", "# Summary\n\ntitle() added and tested.\n"),
        gate("WORK_SUMMARY.md"),
        finish("APPROVED_WORK"),
      ],
      "worker@dispatch:title": [
        // The session keeps what one call exports for the next.
        tools(call("bash", { command: `export PYTHONPATH=src && ${UNITTEST}` })),
        tools(
          call(EDITOR, { command: "create", path: "src/title.py", file_text: TITLE_PY }),
          call(EDITOR, { command: "create", path: "tests/test_title.py", file_text: TITLE_TEST }),
        ),
        tools(call("bash", { command: UNITTEST })),
        tools(call("reply", { text: "title() is in src/title.py; 5 tests pass." })),
        say("done"),
      ],
      "verifier@verify:title-1": [
        tools(call("bash", { command: `PYTHONPATH=src ${UNITTEST}` })),
        tools(call("verdict", { verdict: "pass", issues: [], notes: "5 tests pass" })),
      ],
    }),
    toolSet: "bash-editor" as const,
  };
  const scripted = createScriptedModel(script);
  job = await createLocalJob({
    root: await fixtureRoot("cfa-e2e-python-"),
    files: FILES,
    recording: script,
    model: {
      complete: (request, options) => {
        requests.push(request);
        return scripted.complete(request, options);
      },
    },
  });
  // python3 as the runner has it, not a version manager's shim in a home the sandbox hides.
  job.deps = { ...job.deps, env: { ...job.deps.env, PATH: SYSTEM_PATH } };
  await openJob(job);
  const first = await wake(1, job.deps);
  if (first.state === "EXECUTE") {
    await approve(job);
    await wake(1, job.deps);
  }
}, bound(180_000));
afterAll(async () => job?.cleanup());

describe(`a Python project with the bash and editor tools${skipped}`, () => {
  bit("reaches DONE, the worker's module and tests merged, .venv never committed", () => {
    const record = state(job);
    expect(record.state, job.lines.map((l) => `${l.who} ${l.event} ${l.detail}`).join("\n")).toBe(
      "DONE",
    );
    const files = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1").split("\n");
    expect(files).toEqual(expect.arrayContaining(["src/title.py", "tests/test_title.py"]));
    expect(files.some((f) => f.startsWith(".venv/"))).toBe(false);
  });

  bit(
    "records each test run as its turn's evidence: the command line as typed, exit 0, the count",
    () => {
      const engine = state(job).engine as {
        toolSet?: string;
        tasks: Record<
          string,
          { workerEvidence?: CommandEvidence[]; verifierEvidence?: CommandEvidence[] }
        >;
      };
      expect(engine.toolSet).toBe("bash-editor");
      const worker = engine.tasks.title?.workerEvidence ?? [];
      // The counts are unittest's own "Ran N tests … OK" (src/records/test-counts).
      expect(worker.map((e) => [e.command, e.exitCode, e.summary])).toEqual([
        [`export PYTHONPATH=src && ${UNITTEST}`, 0, "2 passed"],
        // Run with the PYTHONPATH the earlier call exported: the 2 old tests and the 3 new.
        [UNITTEST, 0, "5 passed"],
      ]);
      // Not on the worker's command list (git, ls): ran, and said so.
      expect(worker[1]?.unlisted).toEqual(["python"]);
      expect(
        engine.tasks.title?.verifierEvidence?.map((e) => [e.command, e.exitCode, e.summary]),
      ).toEqual([[`PYTHONPATH=src ${UNITTEST}`, 0, "5 passed"]]);
    },
  );

  bit(
    "sends the bash and editor tool types to the worker and verifier, and AGENTS.md to every role",
    () => {
      const roles = new Set(requests.map((r) => r.instance.split("@")[0]));
      expect([...roles].sort()).toEqual([
        "intent-lead",
        "project-lead",
        "proxy",
        "verifier",
        "worker",
      ]);
      for (const request of requests) {
        expect(request.instructions, request.instance).toContain(
          '<untrusted-data source="AGENTS.md">',
        );
        expect(request.instructions).toContain("Standard library only.");
        if (/^(worker|verifier)@/.test(request.instance)) {
          expect(request.tools.slice(0, 2)).toEqual([
            expect.objectContaining({ type: "text_editor_20250728", name: EDITOR }),
            { type: "bash_20250124", name: "bash" },
          ]);
        }
      }
    },
  );
});
