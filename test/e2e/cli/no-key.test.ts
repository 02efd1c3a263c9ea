// Issue 4 §4: without ANTHROPIC_API_KEY, every verb that needs a model says so in one line,
// points at the demo, exits 1 — and has changed nothing.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { NO_KEY_MESSAGE } from "../../../src/cli/no-key.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { makeTempRepo, type TempRepo } from "../../support/git/temp-repo.js";

let local: TempRepo;
/** Where `cfa` keeps the job areas: beside the repository, never inside it. */
const workRoot = () => join(local.root, "work");
let before: string;
beforeAll(async () => {
  local = makeTempRepo({
    prefix: "cfa-cli-test-",
    files: { "README.md": "# greet\n\nA greeting.\n" },
  });
  before = snapshot();
});
afterAll(async () => local?.cleanup());

/** Everything a command could have changed: refs, the index, the work tree, the forge. */
function snapshot(): string {
  return [
    local.git("for-each-ref"),
    local.git("status", "--porcelain", "--ignored"),
    local.git("worktree", "list", "--porcelain"),
    String(existsSync(join(local.repo, ".git", "cfa-local"))),
    String(existsSync(workRoot())),
  ].join("\n");
}

const VERBS: string[][] = [
  ["run", "Add a greeting"],
  ["run", "Add a greeting", "--record", "rec.json"],
  ["approve", "1"],
  ["reject", "1", "--comment", "shorter"],
  ["answer", "1", "yes"],
  ["withdraw", "1"],
  ["intervene", "1", "stop"],
  ["resume", "1"],
];

describe("without ANTHROPIC_API_KEY", () => {
  it.each(VERBS)(
    "cfa %s … says so in one line, points at the demo and changes nothing",
    async (...argv) => {
      const io = captureIo({ cwd: local.root, workRoot: workRoot() });
      expect(await main([...argv, "--repo", local.repo], io)).toBe(1);
      expect(io.err()).toBe(`${NO_KEY_MESSAGE}\n`);
      expect(io.err()).toContain("npx cfa demo");
      expect(io.out()).toBe("");
      expect(snapshot()).toBe(before);
      expect(existsSync(join(local.root, "rec.json"))).toBe(false);
    },
  );

  it("an empty key counts as none", async () => {
    const io = captureIo({
      cwd: local.root,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: " " },
    });
    expect(await main(["run", "x", "--repo", local.repo], io)).toBe(1);
    expect(io.err()).toBe(`${NO_KEY_MESSAGE}\n`);
  });

  it.each([
    ["watch", "1"],
    ["inspect", "1"],
  ])("cfa %s never needs it", async (...argv) => {
    const io = captureIo({ cwd: local.root });
    expect(await main([...argv, "--repo", local.repo], io)).toBe(1);
    expect(io.err()).not.toContain("ANTHROPIC_API_KEY");
    expect(io.err()).toContain(`there is no job #1 in ${local.repo} (no branch cfa/1)`);
    expect(snapshot()).toBe(before);
  });
});
