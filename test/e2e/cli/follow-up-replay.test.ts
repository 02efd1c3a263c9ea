// recordings/follow-up.json (made by scripts/record-follow-up.ts with --record): `cfa replay`
// runs the demo's job to DONE, then the review that requests a change with one inline comment
// and the follow-up it starts (docs/protocol.md#jobs-and-states) through its gates and one
// task to DONE — without a model. Both jobs end DONE; the first job's records are, in the
// branch's final tree, exactly what they were at its DONE commit, the follow-up's commits
// come after it, there is one pull request, and `cfa inspect` shows both rounds.

import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { LocalForge } from "../../../src/adapters/local/local-forge.js";
import { systemClock } from "../../../src/ports/clock.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";

const FILE = join(import.meta.dirname, "../../../recordings/follow-up.json");

describe("cfa replay recordings/follow-up.json", () => {
  let root: string;
  let repo: string;
  let out: string;
  let code: number;
  beforeAll(async () => {
    root = tempDir("cfa-follow-up-replay-");
    const io = captureIo({ cwd: root, workRoot: join(root, "work") });
    code = await main(["replay", FILE, "--dir", join(root, "replay")], io);
    out = io.out() + io.err();
    repo = join(root, "replay", "repo");
  });
  afterAll(() => removeDir(root));

  const state = (dir: string, at = "cfa/1") =>
    JSON.parse(git(repo, "show", `${at}:${dir}/state.json`)) as {
      state: string;
      history: { to: string }[];
    };
  /** The commit that made job #1 DONE: the last to touch its records. */
  const doneCommit = () => git(repo, "log", "-1", "--format=%H", "cfa/1", "--", ".cfa/jobs/1");

  it("replays to the end without a model: both jobs DONE", () => {
    expect(code, out).toBe(0);
    expect(out).not.toContain("diverged");
    expect(state(".cfa/jobs/1").state).toBe("DONE");
    expect(state(".cfa/jobs/1.2").state).toBe("DONE");
  });

  it("leaves the first job's records as they were at its DONE commit, the follow-up's commits after it", () => {
    const done = doneCommit();
    expect(state(".cfa/jobs/1", done).state).toBe("DONE");
    expect(git(repo, "rev-parse", "cfa/1:.cfa/jobs/1")).toBe(
      git(repo, "rev-parse", `${done}:.cfa/jobs/1`),
    );
    // Every commit since is the follow-up's, on the same branch.
    const after = git(repo, "log", "--format=%s", `${done}..cfa/1`).split("\n");
    expect(after.length).toBeGreaterThan(5);
    expect(after.at(-1)).toMatch(/^cfa #1: follow-up 2 starts \(review \d+ by @\S*ana\)$/);
    expect(git(repo, "log", "--format=%H", `${done}..cfa/1`, "--", ".cfa/jobs/1")).toBe("");
    // Its one task branched from cfa/1 after DONE and merged back: the marker is in the code.
    expect(git(repo, "show", "cfa/1:src/truncate.js")).toContain('{ ellipsis = "…" } = {}');
  });

  it("keeps one pull request for both jobs", async () => {
    const forge = new LocalForge({
      repoDir: repo,
      dataDir: join(repo, ".git", "cfa-local"),
      clock: systemClock,
      person: "ana",
    });
    const doc = JSON.parse(
      await readFile(join(repo, ".git", "cfa-local", "forge.json"), "utf8"),
    ) as {
      pulls: { head: string }[];
    };
    expect(doc.pulls).toHaveLength(1);
    expect((await forge.findPullRequest("cfa/1"))?.head).toBe("cfa/1");
  });

  it("cfa inspect shows both rounds, in order", async () => {
    const io = captureIo({ cwd: repo });
    expect(await main(["inspect", "1"], io)).toBe(0);
    const text = io.out();
    const first = text.indexOf('Job #1 "Add three string helpers');
    const second = text.indexOf('Follow-up 2 of job #1 "Add three string helpers');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    expect(text).toMatch(
      /asked after DONE by @ana: review \d+ requesting changes \(1 inline comment\)/,
    );
    expect(text).toContain("(inline on src/truncate.js:13)");
    expect(text).toContain(
      "task truncate-marker — merged, verifier ✓ pass (cfa/1-truncate-marker)",
    );
    expect(text).toContain("Records: cfa/1 at");
    expect(text).toContain("under .cfa/jobs/1.2/");
  });

  it("once its work is merged, cfa followup (the request from a file or standard input) says to start a new job", async () => {
    git(repo, "merge", "--quiet", "--no-ff", "-m", "merge cfa/1", "cfa/1");
    writeFileSync(join(root, "request.md"), "Also document the marker.\n");
    for (const argv of [
      ["followup", "1", "--file", join(root, "request.md")],
      ["followup", "1", "-"],
      ["reject", "1", "--comment", "one more"],
    ]) {
      const io = captureIo({ cwd: repo, readStdin: async () => "Also document the marker.\n" });
      expect(await main(argv, io), io.err()).toBe(1);
      expect(io.err()).toContain(
        "job #1's work is merged into main, so it takes no follow-up: start a new job",
      );
    }
    // Nothing was asked on the forge: the refusal comes before any action.
    const doc = JSON.parse(
      await readFile(join(repo, ".git", "cfa-local", "forge.json"), "utf8"),
    ) as { comments: { body: string }[] };
    expect(doc.comments.some((c) => c.body.startsWith("/cfa"))).toBe(false);
  });
});
