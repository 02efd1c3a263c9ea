// A commit message leaves with the branch: the job repository redacts it before git sees it.

import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { JobRepo } from "../../../../src/engine/tree/job-repo.js";
import { REDACTED, registerSecret } from "../../../../src/secrets/index.js";

const run = promisify(execFile);
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("JobRepo.commit: commit messages pass the process's redactor", () => {
  it("a registered value and a token shape in a message are committed redacted", async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cfa-commit-redact-"));
    await run("git", ["init", "-q", "-b", "main", dir]);
    await writeFile(path.join(dir, "f.txt"), "x\n");
    const planted = "planted-value-of-this-process-7731";
    registerSecret(planted);

    const repo = new JobRepo(dir);
    await repo.commit(`turn 1: worker said ${planted} and sk-ant-api03-abcdefghijklmnop`);

    const { stdout } = await run("git", ["-C", dir, "log", "-1", "--format=%B"]);
    expect(stdout.trim()).toBe(`turn 1: worker said ${REDACTED} and ${REDACTED}`);
  });
});
