// A task's workspace and branch (src/engine/turn/task-workspace.ts): opened once per wake,
// published never forced — created on the first push, then compare-and-swap. No git: the
// Workspaces port and the forge are the memory session's.

import { describe, expect, it } from "vitest";
import { pushTask, taskWorkspace } from "../../../../src/engine/turn/task-workspace.js";
import { memorySession, openTasks } from "../../../support/engine/memory-session.js";

const BASE = "0".repeat(40);

describe("taskWorkspace", () => {
  it("opens a task's worktree once per wake, and knows no task it has no record of", async () => {
    const session = await memorySession();
    openTasks(session, ["api"]);
    const first = await taskWorkspace(session.s, "api");
    const again = await taskWorkspace(session.s, "api");
    expect(again).toBe(first);
    expect(session.workspaceCalls).toEqual(["open task-api"]);
    await expect(taskWorkspace(session.s, "nope")).rejects.toThrow("cfa/engine: no task nope");
  });
});

describe("pushTask", () => {
  it("creates the task's branch on its first push, then moves it compare-and-swap", async () => {
    const session = await memorySession();
    openTasks(session, ["api"]);
    await pushTask(session.s, "api", BASE, "1".repeat(40));
    await pushTask(session.s, "api", "1".repeat(40), "2".repeat(40));
    expect(session.forge.did).toEqual([
      `push cfa/1-api ${"1".repeat(40)} (expected null)`,
      `push cfa/1-api ${"2".repeat(40)} (expected ${"1".repeat(40)})`,
    ]);
  });
});
