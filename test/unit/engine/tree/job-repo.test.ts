// A commit message leaves with the branch: the job repository redacts it before git sees it.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { JobRepo } from "../../../../src/engine/tree/job-repo.js";
import { REDACTED, registerSecret } from "../../../../src/secrets/index.js";
import { makeTempRepo, type TempRepo } from "../../../support/git/temp-repo.js";

let temp: TempRepo | undefined;

afterEach(() => temp?.cleanup());

describe("JobRepo.commit: commit messages pass the process's redactor", () => {
  it("a registered value and a token shape in a message are committed redacted", async () => {
    temp = makeTempRepo({ prefix: "cfa-commit-redact-", at: "", empty: true, identity: null });
    temp.write("f.txt", "x\n");
    const planted = "planted-value-of-this-process-7731";
    registerSecret(planted);

    const repo = new JobRepo(temp.repo);
    await repo.commit(`turn 1: worker said ${planted} and sk-ant-api03-abcdefghijklmnop`);

    expect(temp.git("log", "-1", "--format=%B")).toBe(
      `turn 1: worker said ${REDACTED} and ${REDACTED}`,
    );
  });
});

describe("JobRepo.parentOf: a commit's parent from git's reflog, no git process", () => {
  it("names the parent of each of 2 commits it made, and nothing for a commit it did not make", async () => {
    temp = makeTempRepo({ prefix: "cfa-commit-parent-", at: "" });
    const base = temp.git("rev-parse", "HEAD");
    const repo = new JobRepo(temp.repo);
    temp.write("a.txt", "a\n");
    const first = await repo.commit("first");
    temp.write("b.txt", "b\n");
    const second = await repo.commit("second");
    expect(repo.parentOf(first!)).toBe(base);
    expect(repo.parentOf(second!)).toBe(temp.git("rev-parse", `${second}^`));
    expect(repo.parentOf(second!)).toBe(first);
    expect(repo.parentOf(base)).toBeUndefined();
  });

  it("says nothing when the reflog does not record the commit (core.logAllRefUpdates off): git is asked instead", async () => {
    temp = makeTempRepo({ prefix: "cfa-commit-parent-", at: "" });
    // git appends to a reflog that exists whatever the setting says: none must exist.
    temp.git("config", "core.logAllRefUpdates", "false");
    rmSync(join(temp.repo, ".git", "logs"), { recursive: true, force: true });
    const repo = new JobRepo(temp.repo);
    temp.write("a.txt", "a\n");
    const made = await repo.commit("first");
    expect(made).not.toBeNull();
    expect(repo.parentOf(made!)).toBeUndefined();
  });
});

describe("JobRepo.resetToHead: one status when nothing is left to put back", () => {
  const setUp = () => {
    temp = makeTempRepo({
      prefix: "cfa-reset-look-",
      at: "",
      files: { "src/a.txt": "a\n", "node_modules/kept/index.js": "tracked\n" },
    });
    mkdirSync(join(temp.repo, "empty-dir"));
    return new JobRepo(temp.repo);
  };

  it("a clean tree is left as it is: the empty folder only `clean -d` would remove stays", async () => {
    const repo = setUp();
    await repo.resetToHead();
    expect(existsSync(join(temp!.repo, "empty-dir"))).toBe(true);
    // Positive control: a stray file makes the reset run, and `clean -d` takes the folder too.
    temp!.write("empty-dir/stray.txt", "x\n");
    await repo.resetToHead();
    expect(existsSync(join(temp!.repo, "empty-dir"))).toBe(false);
  });

  it("puts back 4 leftovers: a changed file, an untracked one, a staged one, and a tracked file changed in a dependency folder", async () => {
    const repo = setUp();
    temp!.write("src/a.txt", "changed\n");
    temp!.write("src/new.txt", "new\n");
    temp!.write("src/staged.txt", "staged\n");
    temp!.git("add", "src/staged.txt");
    temp!.write("node_modules/kept/index.js", "changed by a turn\n");
    await repo.resetToHead();
    expect(readFileSync(join(temp!.repo, "src/a.txt"), "utf8")).toBe("a\n");
    expect(existsSync(join(temp!.repo, "src/new.txt"))).toBe(false);
    expect(existsSync(join(temp!.repo, "src/staged.txt"))).toBe(false);
    expect(readFileSync(join(temp!.repo, "node_modules/kept/index.js"), "utf8")).toBe("tracked\n");
    expect(temp!.git("status", "--porcelain")).toBe("");
  });

  it("a merge left in progress on a clean tree is ended all the same (MERGE_HEAD goes)", async () => {
    const repo = setUp();
    writeFileSync(join(temp!.repo, ".git", "MERGE_HEAD"), `${temp!.git("rev-parse", "HEAD")}\n`);
    await repo.resetToHead();
    expect(existsSync(join(temp!.repo, ".git", "MERGE_HEAD"))).toBe(false);
  });
});

describe("the records' object format from HEAD's own ids, no git process", () => {
  it("SHA-256 and SHA-1 repositories holding records, and one SHA-256 without any (asked): 3 cases", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cfa-object-format-"));
    const make = (name: string, format: string, withRecord: boolean): string => {
      const root = join(dir, name);
      mkdirSync(root);
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root });
      git("init", "--quiet", `--object-format=${format}`);
      mkdirSync(join(root, withRecord ? ".cfa" : "src"));
      writeFileSync(join(root, withRecord ? ".cfa/state.json" : "src/a.txt"), "{}\n");
      git("add", ".");
      git("commit", "--quiet", "-m", "0");
      return root;
    };
    try {
      for (const [name, format, withRecord, length] of [
        ["a", "sha256", true, 64],
        ["b", "sha1", true, 40],
        ["c", "sha256", false, 64],
      ] as const) {
        const repo = new JobRepo(make(name, format, withRecord));
        await repo.prepare();
        expect(repo.records.oidOf(Buffer.from("x")).length, name).toBe(length);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
