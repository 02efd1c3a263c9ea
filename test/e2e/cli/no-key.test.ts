// Without ANTHROPIC_API_KEY, every verb that needs a model says so in one line, points at the demo,
// exits 1 — and has changed nothing. The job and the action are checked first (a wrong job number
// is the more useful answer), and withdraw needs no key at all: stopping a job runs no agent.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { noKeyMessage } from "../../../src/cli/no-key.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";
import { waitingJob, type WaitingJob } from "../../support/cli/waiting-job.js";
import { bound } from "../../support/time-bound.js";

const NO_KEY = `${noKeyMessage("cfa")}\n`;

let root: string;
let local: TempRepo;
let gate: WaitingJob;
let question: WaitingJob;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-no-key-test-"));
  local = makeTempRepo({
    prefix: "cfa-cli-test-",
    files: { "README.md": "# greet\n\nA greeting.\n" },
  });
  [gate, question] = await Promise.all([
    waitingJob(root, "gate", "gate"),
    waitingJob(root, "question", "question"),
  ]);
}, bound(60_000));
afterAll(async () => {
  await local?.cleanup();
  await rm(root, { recursive: true, force: true });
});

/** Every file under `dir`, with its contents: what a command could have written there. */
function tree(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile())
        out.push(`${relative(dir, path)} ${statSync(path).size} ${readFileSync(path, "utf8")}`);
    }
  };
  walk(dir);
  return out.sort().join("\n");
}

/** Everything a command could have changed: refs, the index, the work tree, the forge, the areas. */
function snapshot(job: WaitingJob): string {
  return [
    job.git("for-each-ref"),
    job.git("status", "--porcelain", "--ignored"),
    job.git("worktree", "list", "--porcelain"),
    tree(join(job.repo, ".git", "cfa-local")),
    tree(job.cacheHome),
  ].join("\n");
}

const NEED_A_MODEL: [string, () => WaitingJob, string[]][] = [
  ["approve", () => gate, ["approve", "1"]],
  ["reject", () => gate, ["reject", "1", "--comment", "shorter"]],
  ["answer", () => question, ["answer", "1", "yes"]],
  ["intervene", () => question, ["intervene", "1", "stop"]],
  ["resume", () => question, ["resume", "1"]],
];

describe("without ANTHROPIC_API_KEY", () => {
  it.each(NEED_A_MODEL)(
    "cfa %s on a job that can take it says so in one line, points at the demo and changes nothing",
    async (_verb, job, argv) => {
      const before = snapshot(job());
      const io = job().io();
      expect(await main([...argv, "--repo", job().repo], io)).toBe(1);
      expect(io.err()).toBe(NO_KEY);
      expect(io.err()).toContain("`cfa demo`");
      expect(io.out()).toBe("");
      expect(snapshot(job())).toBe(before);
    },
  );

  it.each([[["run", "Add a greeting"]], [["run", "Add a greeting", "--record", "rec.json"]]])(
    "cfa %j says so before it opens anything",
    async (argv) => {
      const io = captureIo({ cwd: local.root, workRoot: join(local.root, "work") });
      expect(await main([...argv, "--repo", local.repo], io)).toBe(1);
      expect(io.err()).toBe(NO_KEY);
      expect(local.git("branch", "--list", "cfa/*")).toBe("");
      expect(readdirSync(local.root)).not.toContain("rec.json");
    },
  );

  it("under npx over a local install, the demo it points at is the installed bin's", async () => {
    const io = captureIo({
      cwd: local.root,
      env: { PATH: process.env.PATH, npm_command: "exec", npm_package_name: "my-app" },
    });
    expect(await main(["run", "x", "--repo", local.repo], io)).toBe(1);
    expect(io.err()).toBe(`${noKeyMessage("npx cfa")}\n`);
    expect(io.err()).toContain("Try `npx cfa demo`");
  });

  it("an empty key counts as none", async () => {
    const io = captureIo({
      cwd: local.root,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: " " },
    });
    expect(await main(["run", "x", "--repo", local.repo], io)).toBe(1);
    expect(io.err()).toBe(NO_KEY);
  });

  it.each([[["approve", "7"]], [["withdraw", "7"]], [["resume", "7"]]])(
    "cfa %j on a job that does not exist says so, not that the key is missing",
    async (argv) => {
      const io = gate.io();
      expect(await main([...argv, "--repo", gate.repo], io)).toBe(1);
      expect(io.err()).toBe(`cfa: there is no job #7 in ${gate.repo} (no branch cfa/7).\n`);
    },
  );

  it("cfa approve of a job waiting on a question points at answer, not at the key", async () => {
    const io = question.io();
    expect(await main(["approve", "1", "--repo", question.repo], io)).toBe(1);
    expect(io.err()).toContain("cfa: job #1 is not waiting on a review: it waits on your answer");
    expect(io.err()).not.toContain("ANTHROPIC_API_KEY");
  });

  it.each([
    ["watch", "1"],
    ["inspect", "1"],
  ])("cfa %s never needs it", async (...argv) => {
    const io = captureIo({ cwd: local.root });
    expect(await main([...argv, "--repo", local.repo], io)).toBe(1);
    expect(io.err()).not.toContain("ANTHROPIC_API_KEY");
    expect(io.err()).toContain(`there is no job #1 in ${local.repo} (no branch cfa/1)`);
  });
});
