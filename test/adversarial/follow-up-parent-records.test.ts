// Adversarial class "a follow-up against the job before it" (docs/protocol.md#jobs-and-states:
// the ended job's records never change). A follow-up's lead works in the same job worktree
// that holds the ended job's records, `.cfa/jobs/1/` beside its own `.cfa/jobs/1.2/`, and its
// commands can write anything there: each plant below changes, removes, links or adds to the
// ended job's records — its artifacts included, which were a lead's to write while it ran —
// or plants a round that never began. Through the after-command check and a turn's commit,
// the ended job's folder stays the very tree it was; the follow-up's own artifact is taken
// (positive control), and without the follow-up's record the same INTENT.md change would be
// taken as that job's artifact (positive control: the guard is the newest round, not luck).

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containWorkspace } from "../../src/engine/tree/contain-workspace.js";
import { writeText } from "../../src/engine/tree/files.js";
import { makeGitFixture, type GitFixture } from "../support/git/git-fixture.js";
import { jobWorkspace, type JobWorkspace } from "../support/git/job-workspace.js";
import { git } from "../support/git/temp-repo.js";
import { cases } from "../support/adversarial/count.js";

const PARENT = ".cfa/jobs/1";
const OWN = ".cfa/jobs/1.2";

/** What a follow-up's command does to the ended job's records. */
const PLANTS: { name: string; plant(root: string): void }[] = [
  {
    name: "rewrites its INTENT.md",
    plant: (r) => writeFileSync(path.join(r, PARENT, "INTENT.md"), "# forged\n"),
  },
  { name: "removes its PLAN.md", plant: (r) => rmSync(path.join(r, PARENT, "PLAN.md")) },
  {
    name: "links its WORK_SUMMARY.md to /proc/self/environ",
    plant: (r) => {
      rmSync(path.join(r, PARENT, "WORK_SUMMARY.md"));
      symlinkSync("/proc/self/environ", path.join(r, PARENT, "WORK_SUMMARY.md"));
    },
  },
  {
    name: "rewrites its state.json to FAILURE",
    plant: (r) => writeFileSync(path.join(r, PARENT, "state.json"), '{"state":"FAILURE"}\n'),
  },
  {
    name: "appends to its bus.jsonl",
    plant: (r) => writeFileSync(path.join(r, PARENT, "bus.jsonl"), '{"seq":99}\n', { flag: "a" }),
  },
  {
    name: "adds a file to its folder",
    plant: (r) => writeFileSync(path.join(r, PARENT, "NOTES.md"), "forged\n"),
  },
  {
    name: "plants a round that never began, with an artifact",
    plant: (r) => {
      mkdirSync(path.join(r, ".cfa/jobs/1.9"), { recursive: true });
      writeFileSync(path.join(r, ".cfa/jobs/1.9/INTENT.md"), "# newer\n");
    },
  },
];

async function parentAtDone(fx: GitFixture): Promise<JobWorkspace> {
  const ws = await jobWorkspace(fx);
  for (const [file, text] of [
    ["state.json", '{"state":"DONE"}\n'],
    ["bus.jsonl", '{"seq":1}\n'],
    ["INTENT.md", "# Intent\n"],
    ["PLAN.md", "# Plan\n"],
    ["WORK_SUMMARY.md", "# Summary\n"],
  ] as const) {
    await writeText(ws.job.root, `${PARENT}/${file}`, text);
  }
  await ws.repo.commit("job 1 DONE");
  return ws;
}

describe(cases("a follow-up against the job before it", PLANTS.length + 1, "plants"), () => {
  let fx: GitFixture;
  let ws: JobWorkspace;
  let parentTree: string;
  beforeAll(async () => {
    fx = makeGitFixture();
    ws = await parentAtDone(fx);
    parentTree = git(ws.job.root, "rev-parse", `HEAD:${PARENT}`);
    // The follow-up began: its record beside the parent's.
    await writeText(ws.job.root, `${OWN}/state.json`, '{"state":"INTENT"}\n');
    await ws.repo.commit("follow-up 2 starts");
  });
  afterAll(() => fx.cleanup());

  it.each(PLANTS)("the follow-up's command $name: put back, never committed", async ({ plant }) => {
    plant(ws.job.root);
    // The follow-up's intent lead writes its own artifact in the same command.
    writeFileSync(path.join(ws.job.root, OWN, "INTENT.md"), `# Follow-up ${Math.random()}\n`);
    const contained = await containWorkspace(ws.repo, {
      ...(ws.job.gitDir ? { gitDir: ws.job.gitDir } : {}),
      protect: [".cfa/", `!${OWN}/INTENT.md`],
      ownRecord: (file) => file.startsWith(`${OWN}/`),
    });
    // Another job's records: put back and said, not this job's own (the turn goes on).
    expect(contained.tampered).toEqual([]);
    await ws.repo.commit("the follow-up's turn");
    expect(git(ws.job.root, "rev-parse", `HEAD:${PARENT}`)).toBe(parentTree);
    expect(git(ws.job.root, "ls-tree", "--name-only", "HEAD", ".cfa/jobs/")).not.toContain("1.9");
    // Positive control: the follow-up's own artifact is committed.
    expect(git(ws.job.root, "show", `HEAD:${OWN}/INTENT.md`)).toMatch(/^# Follow-up /);
  });

  it("a commit with no check before it still takes none of the ended job's artifacts", async () => {
    // The commit's own rule (RecordLedger.isArtifact): an ended job's artifacts are records.
    writeFileSync(path.join(ws.job.root, PARENT, "PLAN.md"), "# forged, never checked\n");
    await ws.repo.commit("a commit alone");
    expect(git(ws.job.root, "rev-parse", `HEAD:${PARENT}`)).toBe(parentTree);
  });

  it("positive control: while the job is the newest, its lead's INTENT.md change is its artifact", async () => {
    const other = makeGitFixture();
    try {
      const alone = await parentAtDone(other);
      writeFileSync(path.join(alone.job.root, PARENT, "INTENT.md"), "# changed by its lead\n");
      await alone.repo.commit("the job's turn");
      expect(git(alone.job.root, "show", `HEAD:${PARENT}/INTENT.md`)).toBe("# changed by its lead");
    } finally {
      other.cleanup();
    }
  });
});
