// Starting a task (src/engine/tasks/provision-task.ts) as records: past the fan-out cap a
// dispatch is queued with what it needs to start later ([send-block]). Making its worktree is
// real git: test/e2e/fan-out-queue and nested-dispatch.

import { describe, expect, it } from "vitest";
import { queueTask } from "../../../../src/engine/tasks/provision-task.js";
import { memorySession } from "../../../support/engine/memory-session.js";

describe("queueTask", () => {
  it("records a task past the fan-out cap as queued, with its parent and the files to copy when it starts", async () => {
    const { s, lines } = await memorySession();
    queueTask(s, { id: "docs", brief: "Write docs", files: ["README.md"], parent: "api" });
    expect(s.engine.tasks["docs"]).toEqual({
      thread: "dispatch:docs",
      branch: "cfa/1-docs",
      dir: "task-docs",
      base: "",
      brief: "Write docs",
      status: "queued",
      verifyFailures: 0,
      parent: "api",
      files: ["README.md"],
    });
    expect(lines.at(-1)).toMatchObject({
      event: "QUEUED",
      detail: "task docs waits for a free slot",
    });
  });
});
