// A commit message leaves with the branch: the job repository redacts it before git sees it.

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
