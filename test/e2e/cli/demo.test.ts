// `cfa demo`: the shipped recording replays a whole job to DONE — a plan with one requested
// change, three parallel tasks verified and merged — and prints the log and where to look.

import { readFileSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { DROPPING_PATH, filesHolding } from "../../support/git/files-holding.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { captureIo, type CapturedIo } from "../../support/cli/capture-io.js";
import { bound } from "../../support/time-bound.js";

let root: string;
let io: CapturedIo;
let code: number;
let repo: string;

beforeAll(async () => {
  root = tempDir("cfa-demo-test-");
  io = captureIo({
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: join(root, "cache") },
  });
  code = await main(["demo", "--dir", join(root, "demo")], io);
  repo = join(root, "demo", "repo");
}, bound(120_000));
afterAll(() => removeDir(root));

describe("cfa demo", () => {
  it("completes: exit 0, nothing on stderr", () => {
    expect(io.err()).toBe("");
    expect(code).toBe(0);
  });

  it("prints the live log of every phase, with the person's actions between", () => {
    const out = io.out();
    const story = [
      "INTENT        START     intent-lead sparked on state:intent:1",
      "GATE          APPROVAL  ⏸ INTENT.md waits for @ana's review",
      "▶ @ana approves INTENT.md of job #1",
      "PLAN          START     project-lead sparked on state:plan:1",
      "▶ @ana requests changes to PLAN.md of job #1: \"One change: truncate's result",
      "HUMAN         CHANGES   q2 by @ana",
      "project-lead  ASSERT    q3: PLAN.md is revised as you asked",
      "EXECUTE       DISPATCH  3 tasks in parallel: camel-case, capitalize, truncate",
      // The verifiers run the tests they judge; the verdict shows what ran.
      "VERIFY        VERDICT   camel-case ✓ pass (npm test: exit 0, 5 passed)",
      "EXECUTE       MERGED    task camel-case into cfa/1",
      "EXECUTE       MERGED    task capitalize into cfa/1",
      "EXECUTE       MERGED    task truncate into cfa/1",
      "GATE          APPROVAL  ⏸ WORK_SUMMARY.md waits for @ana's review",
      "DONE          APPROVED_WORK EXECUTE → DONE",
      "DONE — the work is approved.",
      "with no model and no network. Where to look:",
    ];
    let at = -1;
    for (const part of story) {
      const found = out.indexOf(part, at + 1);
      expect(found, part).toBeGreaterThan(at);
      at = found;
    }
    expect(out).not.toContain("worker:"); // per-task lines only with --verbose
    // A count and its noun agree.
    expect(out).toContain("turn 2 (1 tool call): APPROVED_INTENT");
    expect(out).not.toContain("(1 tool calls)");
  });

  it("records each verdict's evidence: the verifier looked at the task's commit, ran npm test through bash, and it passed", () => {
    const state = JSON.parse(git(repo, "show", "cfa/1:.cfa/jobs/1/state.json")) as {
      engine: {
        tasks: Record<
          string,
          { verifierEvidence?: { command: string; exitCode: number; summary?: string }[] }
        >;
      };
    };
    for (const task of ["camel-case", "capitalize", "truncate"]) {
      expect(state.engine.tasks[task]?.verifierEvidence, task).toEqual([
        expect.objectContaining({
          command: "git log --oneline -3 && git show --stat --format=%s HEAD",
          exitCode: 0,
        }),
        expect.objectContaining({
          command: "npm test",
          exitCode: 0,
          summary: expect.stringMatching(/^\d+ passed$/),
        }),
      ]);
    }
  });

  it("says where to look, with commands that work", () => {
    const out = io.out();
    expect(out).toContain(`the repository           ${repo}`);
    expect(out).toContain(`git -C ${repo} log --oneline --graph cfa/1`);
    expect(out).toContain(`cfa inspect 1 --repo ${repo}`);
    // It ends by pointing to the job's page (cfa show), written and whole.
    const page = /^ {2}the job's page {11}(\S+)$/m.exec(out)?.[1];
    expect(page).toBe(join(repo, ".git", "cfa-local", "job-1.html"));
    expect(readFileSync(page!, "utf8")).toMatch(
      /<h1>cfa job #1: Add three string helpers[\s\S]*<\/html>\n$/,
    );
    expect(out).toContain(`merge it: \`git -C ${repo} merge --no-ff cfa/1\`.`);
    for (const artifact of ["INTENT.md", "PLAN.md", "WORK_SUMMARY.md"]) {
      expect(out).toContain(`git -C ${repo} show cfa/1:.cfa/jobs/1/${artifact}`);
    }
  });

  it("leaves a repository whose job branch holds the merged work and a DONE record", () => {
    const state = JSON.parse(git(repo, "show", "cfa/1:.cfa/jobs/1/state.json")) as {
      state: string;
      backtracks: number;
      engine: { tasks: Record<string, { status: string; lastVerdict: string }> };
    };
    expect(state.state).toBe("DONE");
    expect(
      Object.entries(state.engine.tasks).map(([id, t]) => [id, t.status, t.lastVerdict]),
    ).toEqual([
      ["camel-case", "merged", "pass"],
      ["capitalize", "merged", "pass"],
      ["truncate", "merged", "pass"],
    ]);
    const files = git(repo, "ls-tree", "-r", "--name-only", "cfa/1").split("\n");
    for (const f of [
      "src/camel-case.js",
      "src/capitalize.js",
      "src/truncate.js",
      "test/truncate.test.js",
    ]) {
      expect(files).toContain(f);
    }
    expect(git(repo, "show", "cfa/1:src/index.js")).toContain(
      'export { truncate } from "./truncate.js";',
    );
    expect(git(repo, "log", "--merges", "--format=%s", "cfa/1").split("\n").sort()).toEqual([
      "cfa #1: merge task camel-case",
      "cfa #1: merge task capitalize",
      "cfa #1: merge task truncate",
    ]);
    expect(git(repo, "branch", "--list", "cfa/1-*")).toBe("");
    expect(git(repo, "show", "cfa/1:.cfa/jobs/1/PLAN.md")).toContain("## Changes after review");
  });

  it("leaves branches that hold no tool dropping and no string of the runner's paths", () => {
    const branches = git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads").split(
      "\n",
    );
    expect(branches).toEqual(["cfa/1", "main"]);
    for (const branch of branches) {
      const files = git(repo, "ls-tree", "-r", "--name-only", branch).split("\n");
      expect(
        files.filter((f) => DROPPING_PATH.test(f)),
        branch,
      ).toEqual([]);
      // The demo's folder, the machine's home and cache, its kernel: nothing of the runner.
      const runner = [root, process.env.HOME ?? "/nonexistent-home", release()];
      expect(filesHolding(repo, branch, runner), branch).toEqual([]);
    }
  });

  it("can be inspected and watched afterwards, as it says", async () => {
    const inspect = captureIo({ cwd: root });
    expect(await main(["inspect", "1", "--repo", repo], inspect)).toBe(0);
    expect(inspect.out()).toContain("task truncate — merged, verifier ✓ pass (cfa/1-truncate)");
    expect(inspect.out()).toContain("gate q2 PLAN.md");
    expect(inspect.out()).toContain("— changes requested by @ana");
    const watch = captureIo({ cwd: root });
    expect(await main(["watch", "1", "--verbose", "--repo", repo], watch)).toBe(0);
    expect(watch.out()).toContain("worker:truncate REPLY");
    expect(watch.out()).toContain("DONE — the work is approved.");
  });

  it("prints the live log cfa watch prints afterwards: same lines, same order, same times", async () => {
    const watch = captureIo({ cwd: root });
    expect(await main(["watch", "1", "--repo", repo], watch)).toBe(0);
    const logLines = (text: string) => text.split("\n").filter((l) => l.startsWith("[#1] "));
    const live = logLines(io.out());
    expect(live.length).toBeGreaterThan(30);
    expect(live).toEqual(logLines(watch.out()));
    // From the records, in their order: the job's first line, a turn before what it asked,
    // each task merged before the lead's last question, the gates pinned to their commits.
    expect(live[0]).toMatch(/JOB {11}START {5}"Add three string helpers/);
    const at = (part: string) => live.findIndex((l) => l.includes(part));
    expect(at("MERGED    task truncate")).toBeLessThan(at("ASSERT    q4"));
    expect(at("turn 4 (5 tool calls)")).toBeLessThan(at("ASSERT    q4"));
    expect(live.filter((l) => / APPROVAL .* at [0-9a-f]{7}$/.test(l))).toHaveLength(4);
    expect(live.filter((l) => l.includes("MERGING"))).toEqual([]);
    // A long text is cut with "…" at a width, never silently: the person's request for
    // changes is longer than the line; the lead's question is whole.
    const changes = live.find((l) => l.includes("HUMAN         CHANGES   q2"))!;
    expect(changes).toMatch(/…$/);
    expect(live.find((l) => l.includes("ASSERT    q3"))).toMatch(/n = 0 and n = 1\. Approve\?$/);
    for (const line of live) expect(line.length, line).toBeLessThanOrEqual(260);
  });
});
