// A job area follows its repository (src/cli/follow-repository.ts). A job waits at its
// INTENT gate; the repository's folder is moved, then resumed, approved and withdrawn from
// the new path: each verb works, the first says in one line that the areas moved. A copy
// gets areas of its own and leaves the original's job as it was.

import { execFileSync } from "node:child_process";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedModel } from "../../../src/adapters/scripted/index.js";
import { main } from "../../../src/cli/main.js";
import { waitingJob, type WaitingJob } from "../../support/cli/waiting-job.js";
import { finish } from "../../support/engine/recordings.js";
import { call, recording, tools } from "../../support/engine/script.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { bound } from "../../support/time-bound.js";

let root: string;
let moved: WaitingJob;
let copied: WaitingJob;
beforeAll(async () => {
  root = tempDir("cfa-moved-repo-");
  [moved, copied] = await Promise.all([
    waitingJob(root, "before", "gate"),
    waitingJob(root, "original", "gate"),
  ]);
}, bound(60_000));
afterAll(() => removeDir(root));

const state = (repo: string) =>
  (JSON.parse(git(repo, "show", "cfa/1:.cfa/jobs/1/state.json")) as { state: string }).state;
const noSteps = () => createScriptedModel({ version: 1, instances: {} });

describe("a moved repository's job carries on", () => {
  const repo = () => join(root, "after", "repo");
  beforeAll(async () => rename(join(root, "before"), join(root, "after")));

  it("resume: says the areas moved with it, in one line, and the job still waits at its gate", async () => {
    const io = moved.io({ model: noSteps() });
    expect(await main(["resume", "1", "--repo", repo()], io)).toBe(0);
    expect(io.err()).toMatch(
      new RegExp(
        `^cfa: this repository moved from ${join(root, "before", "repo")}: its job areas moved with it \\(\\S+ → \\S+\\)\\.\\n$`,
      ),
    );
    expect(io.out()).toContain("INTENT — waiting on you to review INTENT.md");
    // Registered where it now lies, linked both ways.
    expect(git(repo(), "worktree", "list", "--porcelain")).not.toContain(join(root, "before"));
  });

  it("approve: the gate is passed and the project lead works in the moved area", async () => {
    const model = createScriptedModel(
      recording({
        "intent-lead@state:intent:1": [finish("APPROVED_INTENT")],
        "project-lead@state:plan:1": [
          tools(call("ask_question", { kind: "question", text: "Tabs or spaces?" })),
        ],
      }),
    );
    const io = moved.io({ model });
    expect(await main(["approve", "1", "--repo", repo()], io)).toBe(0);
    expect(io.err()).toBe("");
    expect(io.out()).toContain("PLAN — waiting on your answer to q2");
    expect(model.remaining()).toEqual({
      "intent-lead@state:intent:1": 0,
      "project-lead@state:plan:1": 0,
    });
  });

  it("withdraw: the job ends WITHDRAWN", async () => {
    const io = moved.io();
    expect(await main(["withdraw", "1", "--repo", repo()], io)).toBe(0);
    expect(state(repo())).toBe("WITHDRAWN");
  });
});

describe("a copied repository", () => {
  const copy = () => join(root, "copy", "repo");
  beforeAll(() => {
    execFileSync("cp", ["-a", join(root, "original"), join(root, "copy")]);
  });

  it("gets job areas of its own, said in one line; the original's job is untouched", async () => {
    const io = copied.io();
    expect(await main(["withdraw", "1", "--repo", copy()], io)).toBe(0);
    expect(io.err()).toMatch(
      new RegExp(
        `^cfa: this repository is a copy of ${copied.repo}: its jobs get job areas of their own in \\S+, rebuilt from their branches\\.\\n$`,
      ),
    );
    expect(state(copy())).toBe("WITHDRAWN");
    expect(state(copied.repo)).toBe("INTENT");
    const again = copied.io({ model: noSteps() });
    expect(await main(["resume", "1", "--repo", copied.repo], again)).toBe(0);
    expect(again.err()).toBe("");
    expect(again.out()).toContain("INTENT — waiting on you to review INTENT.md");
  });
});
