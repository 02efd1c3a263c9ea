// How deep a task nests below the lead (src/engine/job/task-depth.ts), from the records.

import { describe, expect, it } from "vitest";
import { taskDepth } from "../../../../src/engine/job/task-depth.js";
import { memorySession, openTasks } from "../../../support/engine/memory-session.js";

describe("taskDepth", () => {
  it("counts the levels below the lead: the lead's task is 1, its sub-task 2", async () => {
    const session = await memorySession();
    openTasks(session, ["api"], ["schema", "api"]);
    const { tasks } = session.s.engine;
    expect(taskDepth(tasks, undefined)).toBe(0);
    expect(taskDepth(tasks, "api")).toBe(1);
    expect(taskDepth(tasks, "schema")).toBe(2);
  });
});
