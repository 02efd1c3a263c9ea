// One workspace location. A replay keeps its job areas where every other verb
// looks for them, so the step it suggests after stopping at a gate (`cfa approve 1 --repo
// <replay>/repo`) works; and a job area left by an earlier repository at the same path
// (deleted and made again) is recognised as stale and replaced, not a failed boundary check.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import { main } from "../../../src/cli/main.js";
import { defaultWorkRoot } from "../../../src/cli/work-root.js";
import { call, recording, tools } from "../../support/engine/script.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { ART, waitingJob } from "../../support/cli/waiting-job.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-work-root-test-"));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** What the job needs after its INTENT gate is approved: the lead finishes, PLAN asks. */
const afterApproval = () =>
  createScriptedModel(
    recording({
      "intent-lead@state:intent:1": [
        tools(call("finish", { outcome: "APPROVED_INTENT", reason: "approved" })),
      ],
      "project-lead@state:plan:1": [
        tools(call("write_file", { path: `${ART}/PLAN.md`, content: "# Plan\n" })),
        tools(call("ask_question", { kind: "gate", text: "plan?", artifact: `${ART}/PLAN.md` })),
      ],
    }),
    { source: "work-root test" },
  );

describe("a replay that stops at a gate", () => {
  it("keeps its job areas where approve looks, so its suggested next step works", async () => {
    const job = await waitingJob(root, "replayed", "gate");
    const area = defaultWorkRoot(job.repo, { XDG_CACHE_HOME: job.cacheHome });
    expect(job.git("worktree", "list", "--porcelain")).toContain(
      `worktree ${join(area, "1", "job")}`,
    );

    const io = job.io({ model: afterApproval() });
    expect(await main(["approve", "1", "--repo", job.repo], io)).toBe(0);
    expect(io.err()).toBe("");
    expect(io.out()).toContain("▶ @ana approves INTENT.md of job #1");
    expect(io.out()).toContain("PLAN — waiting on you to review PLAN.md:");
  });

  it("(control) a verb that looked elsewhere would fail: the branch is already checked out there", async () => {
    const job = await waitingJob(root, "elsewhere", "gate");
    const io = job.io({ model: afterApproval(), workRoot: join(root, "another-place") });
    expect(await main(["approve", "1", "--repo", job.repo], io)).toBe(1);
    expect(io.err()).toContain("'cfa/1' is already checked out");
  });
});

describe("a job area left by an earlier repository at the same path", () => {
  const path = () => join(root, "scratch");
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: path(), encoding: "utf8" }).trim();
  const cacheHome = () => join(root, "scratch-cache");

  async function makeRepository(): Promise<void> {
    await mkdir(path(), { recursive: true });
    git("init", "--quiet", "--initial-branch=main");
    git("config", "user.name", "Ana");
    git("config", "user.email", "ana@example.com");
    git("config", "commit.gpgsign", "false");
    await writeFile(join(path(), "README.md"), "# scratch\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "initial");
  }

  async function run(): Promise<{ code: number; out: string; err: string }> {
    const model = createScriptedModel(
      recording({
        "intent-lead@state:intent:1": [
          tools(call("write_file", { path: `${ART}/INTENT.md`, content: "# Intent\n" })),
          tools(call("ask_question", { kind: "question", text: "Which greeting?" })),
        ],
      }),
      { source: "work-root test" },
    );
    const io = captureIo({
      cwd: path(),
      model,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cacheHome() },
    });
    const code = await main(["run", "Greet"], io);
    return { code, out: io.out(), err: io.err() };
  }

  it("is replaced, and the new repository's job runs", async () => {
    await makeRepository();
    const first = await run();
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    const area = defaultWorkRoot(path(), { XDG_CACHE_HOME: cacheHome() });
    expect(existsSync(join(area, "1", "job"))).toBe(true);

    await rm(path(), { recursive: true, force: true });
    await makeRepository();
    // The stale area is where the new job #1 would go, and no worktree of this repository.
    expect(existsSync(join(area, "1", "job"))).toBe(true);
    expect(git("worktree", "list", "--porcelain")).not.toContain(area);

    const second = await run();
    expect(second.err).toBe(
      `cfa: ${area} held job areas of an earlier repository at ${path()}, none of them this one's: replaced them.\n`,
    );
    expect(second.out).not.toContain("boundary check");
    expect(second.code).toBe(0);
    expect(second.out).toContain("INTENT — waiting on your answer to q1:");
    expect(git("worktree", "list", "--porcelain")).toContain(`worktree ${join(area, "1", "job")}`);

    // The same repository's next command keeps its areas, saying nothing.
    const third = await run();
    expect(third.err).not.toContain("replaced");
  });
});
