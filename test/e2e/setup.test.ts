// Setup steps end to end over a real-shaped project with dependencies: `setup: [npm ci]` from
// .github/cfa.yml installs, in the sandbox through the egress proxy, from a stand-in for
// registry.npmjs.org (test/support/npm-registry) into the job's workspace and into each
// task's worktree; the second and third installs are served from the job's shared npm cache
// (counted on the registry's side). The scripted worker and verifier run the project's
// `npm test` and get exit 0; the verdict carries that evidence, recorded by the engine from
// the tool results, into the records, the status comment and the check run. No dependency
// folder reaches a commit although the repository does not ignore node_modules.

import { execFileSync } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { wake, type EngineDeps } from "../../src/engine/index.js";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import type { CommandEvidence } from "../../src/records/command-evidence.js";
import {
  projectFiles,
  startNpmRegistry,
  type NpmRegistry,
  TINY_PACKAGES,
} from "../support/npm-registry/npm-registry.js";
import { mapRegistry, REGISTRY_HOST, SYSTEM_PATH } from "../support/egress/egress-sandbox.js";
import { bwrapSuite, bwrapWithNpm, fixtureRoot } from "../support/sandbox/sandbox-fixtures.js";
import { createLocalJob, type LocalJob } from "../support/engine/local-job.js";
import { openJob } from "../support/engine/person.js";
import { botComments, foldedBus, state } from "../support/engine/inspect.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { INTENT_STEPS, PLAN_STEPS, gate, writeArtifact } from "../support/engine/recordings.js";

const { bwrapPath, bit } = bwrapSuite(bwrapWithNpm());
const skip = bwrapPath === null;

const TEST_FILE = `const test = require("node:test");
const assert = require("node:assert");
const add = require("tiny-add");
const mul = require("tiny-mul");
test("adds", () => assert.strictEqual(add(2, 3), 5));
test("multiplies", () => assert.strictEqual(mul(2, 3), 6));
`;

let registry: NpmRegistry;
let job: LocalJob;

beforeAll(async () => {
  if (!skip) registry = await startNpmRegistry(TINY_PACKAGES, { host: REGISTRY_HOST });
});
afterAll(async () => {
  if (!skip) await registry.close();
});
afterEach(async () => job?.cleanup());

/** The project: package.json with `npm test` = `node --test`, its lockfile, a test file. */
function projectOf(config: string): Record<string, string> {
  const files = projectFiles(registry, REGISTRY_HOST, TINY_PACKAGES);
  const pkg = JSON.parse(files["package.json"]!) as Record<string, unknown>;
  pkg.scripts = { test: "node --test" };
  return {
    ...files,
    "package.json": `${JSON.stringify(pkg, null, 2)}\n`,
    "test/math.test.js": TEST_FILE,
    // The stand-in registry speaks plain HTTP (the proxy maps its name on the host side);
    // npm would otherwise rewrite the lockfile's registry.npmjs.org URLs to https.
    ".npmrc": `registry=http://${REGISTRY_HOST}/\nupdate-notifier=false\n`,
    ".github/cfa.yml": config,
  };
}

/** The job's deps with a sandbox whose proxy maps registry.npmjs.org to the stand-in. */
function withRegistry(deps: EngineDeps, workRoot: string): EngineDeps {
  const sandbox = createBwrapSandbox({
    bwrapPath: bwrapPath!,
    resolveUpstream: mapRegistry(registry.port),
    hidePaths: [workRoot],
    toolchains: { folders: [], hiddenFiles: [], binFolders: [], env: {} },
  });
  return { ...deps, sandbox: async () => sandbox, env: { ...deps.env, PATH: SYSTEM_PATH } };
}

const npmTest = () => tools(call("run_command", { argv: ["npm", "test"] }));

function filesOn(branch: string): string[] {
  return execFileSync("git", ["ls-tree", "-r", "--name-only", branch], {
    cwd: job.repoDir,
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);
}

describe.skipIf(skip)("setup steps over a project with dependencies", () => {
  bit(
    "npm ci in every workspace from the shared cache; worker and verifier run npm test; the verdict shows it",
    async () => {
      const config = [
        "escalation: { INTENT: never, PLAN: never }",
        "setup: [npm ci --no-audit --no-fund]",
        // The worker reaches the network through the proxy: its refused request is recorded.
        "network: { worker: [node] }",
      ].join("\n");
      job = await createLocalJob({
        root: await fixtureRoot("cfa-e2e-setup-"),
        config: `${config}\n`,
        files: projectOf(`${config}\n`),
        recording: recording({
          "intent-lead@state:intent:1": INTENT_STEPS(),
          "proxy@escalation:q1": [tools(call("answer", { text: "approved" }))],
          "project-lead@state:plan:1": PLAN_STEPS(),
          "proxy@escalation:q2": [tools(call("answer", { text: "approved" }))],
          "project-lead@state:execute:1": [
            tools(
              call("dispatch", { id: "add", brief: "Document add in ADD.md", files: [] }),
              call("dispatch", { id: "mul", brief: "Document mul in MUL.md", files: [] }),
            ),
            say("Dispatched."),
            tools(call("close", { task: "add" })),
            say("Closed add."),
            tools(call("close", { task: "mul" })),
            writeArtifact("WORK_SUMMARY.md", "# Summary\n\nDocumented.\n"),
            gate("WORK_SUMMARY.md"),
          ],
          "worker@dispatch:add": [
            npmTest(),
            tools(
              call("run_command", {
                argv: [
                  "node",
                  "-e",
                  "const r=require('http').get({host:'127.0.0.1',port:3128,path:'http://evil.example/x',headers:{host:'evil.example'}},(res)=>{console.log(res.statusCode)});r.on('error',()=>{})",
                ],
              }),
            ),
            tools(call("write_file", { path: "ADD.md", content: "add(a, b)\n" })),
            tools(call("reply", { text: "ADD.md written; tests pass" })),
            say("done"),
          ],
          "worker@dispatch:mul": [
            npmTest(),
            tools(call("write_file", { path: "MUL.md", content: "mul(a, b)\n" })),
            tools(call("reply", { text: "MUL.md written" })),
            say("done"),
          ],
          "verifier@verify:add-1": [
            npmTest(),
            tools(call("verdict", { verdict: "pass", issues: [], notes: "tests pass" })),
          ],
          // This verifier passes without running anything: shown as unverified.
          "verifier@verify:mul-1": [
            tools(call("verdict", { verdict: "pass", issues: [], notes: "looks right" })),
          ],
        }),
      });
      job.deps = withRegistry(job.deps, job.workRoot);
      await openJob(job);
      const summary = await wake(1, job.deps);
      expect(
        summary.state,
        `${summary.waitingOn}\n${JSON.stringify((state(job).engine as { setup?: unknown }).setup)}\n${job.lines.map((l) => `${l.who} ${l.event} ${l.detail}`).join("\n")}`,
      ).toBe("EXECUTE");
      expect(summary.waitingOn).toContain("review WORK_SUMMARY.md");

      // Setup ran in the job's workspace and in both task worktrees, each passing.
      const engine = state(job).engine as {
        setup: { runs: { workspace: string; ok: boolean; commands: CommandEvidence[] }[] };
        tasks: Record<
          string,
          { workerEvidence?: CommandEvidence[]; verifierEvidence?: CommandEvidence[] }
        >;
        blocked?: { entries: { host: string; by: string; command: string }[] };
      };
      expect(engine.setup.runs.map((r) => [r.workspace, r.ok])).toEqual([
        ["job", true],
        ["add", true],
        ["mul", true],
      ]);
      expect(engine.setup.runs[0]?.commands[0]).toMatchObject({
        command: "npm ci --no-audit --no-fund",
        exitCode: 0,
      });
      // The registry was asked for the two tarballs once: the task worktrees' installs were
      // served from the job's shared cache.
      expect(registry.requests.filter((r) => r.endsWith(".tgz"))).toHaveLength(2);

      // Worker and verifier ran the project's tests and got exit 0, as the engine recorded.
      const passed: CommandEvidence = {
        command: "npm test",
        exitCode: 0,
        durationMs: expect.any(Number) as unknown as number,
        summary: "2 passed",
      };
      expect(engine.tasks.add?.workerEvidence?.[0]).toEqual(passed);
      expect(engine.tasks.mul?.workerEvidence?.[0]).toEqual(passed);
      expect(engine.tasks.add?.verifierEvidence).toEqual([passed]);
      expect(engine.tasks.mul?.verifierEvidence).toEqual([]);
      const verdicts = foldedBus(job).folded.audit.filter((e) => e.type === "verdict");
      expect(verdicts.map((v) => (v as { evidence?: unknown[] }).evidence?.length)).toEqual([1, 0]);

      // The status comment and the check run show the evidence, and the unverified pass.
      const status = (await botComments(job)).find((c) => c.block?.kind === "status");
      expect(status?.body).toContain("pass — `npm test` exit 0, 2 passed");
      expect(status?.body).toContain("pass — **unverified**: the verifier ran no command");
      const checks = await job.forge.listChecks();
      expect(checks.find((c) => c.name === "cfa/execute")?.summary).toContain(
        "pass — `npm test` exit 0, 2 passed",
      );

      // The worker's refused request: in the records, the status comment and the check run.
      expect(engine.blocked?.entries).toEqual([
        expect.objectContaining({ host: "evil.example", by: "worker@dispatch:add" }),
      ]);
      expect(status?.body).toContain("`evil.example:80`");
      expect(checks.find((c) => c.name === "cfa/execute")?.summary).toContain("`evil.example:80`");

      // node_modules is not ignored by this repository, and yet no commit holds it.
      expect(filesOn("cfa/1").some((f) => f.includes("node_modules"))).toBe(false);
      expect(filesOn("cfa/1")).toEqual(expect.arrayContaining(["ADD.md", "MUL.md"]));
    },
    240_000,
  );
});
