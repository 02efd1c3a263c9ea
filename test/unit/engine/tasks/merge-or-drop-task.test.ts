// Dropping a released task (src/engine/tasks/merge-or-drop-task.ts), children first, its
// branch deleted unmerged (withdrawing drops: docs/protocol.md#workspaces); a release a crash
// cut short finished in the records. Merging verifies and runs real git: test/e2e (verifier,
// backtrack-merge) and test/integration/adapters/git.

import { describe, expect, it } from "vitest";
import { applyChange } from "../../../../src/engine/job/session.js";
import { mergeOrDropTask } from "../../../../src/engine/tasks/merge-or-drop-task.js";
import { memorySession, openTasks } from "../../../support/engine/memory-session.js";

describe("mergeOrDropTask, dropping", () => {
  it("drops a task and its open sub-tasks, children first, deleting each branch unmerged", async () => {
    const session = await memorySession();
    openTasks(session, ["api"], ["schema", "api"], ["other"]);

    expect(await mergeOrDropTask(session.s, "api", "drop")).toEqual({ conflict: null });

    expect(session.workspaceCalls.filter((c) => c.startsWith("drop"))).toEqual([
      "drop cfa/1-schema",
      "drop cfa/1-api",
    ]);
    expect(session.forge.did).toEqual(["delete cfa/1-schema", "delete cfa/1-api"]);
    const { tasks } = session.s.engine;
    expect([tasks["api"]?.status, tasks["schema"]?.status, tasks["other"]?.status]).toEqual([
      "dropped",
      "dropped",
      "open",
    ]);
  });

  it("a task no longer open is left as it is", async () => {
    const session = await memorySession();
    openTasks(session, ["api"]);
    applyChange(session.s, { type: "task-status-set", id: "api", status: "merged" });
    await mergeOrDropTask(session.s, "api", "drop");
    expect(session.workspaceCalls).toEqual([]);
    expect(session.forge.did).toEqual([]);
  });

  it("a release a crash interrupted after the branch went is finished in the records only", async () => {
    const session = await memorySession();
    openTasks(session, ["api"]);
    session.branches.clear();
    await mergeOrDropTask(session.s, "api", "merge");
    expect(session.s.engine.tasks["api"]?.status).toBe("merged");
    expect(session.workspaceCalls).toEqual([]);
    expect(session.forge.did).toEqual(["delete cfa/1-api"]);
  });
});
