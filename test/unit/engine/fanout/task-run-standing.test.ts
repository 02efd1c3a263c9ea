// A task run works only as the run its lead dispatched last, for an open task of a live job,
// so every branch keeps one writer; anything else exits at once. The ledger is what the lead's
// run wrote.

import { describe, expect, it } from "vitest";
import { taskRunStanding } from "../../../../src/engine/fanout/task-run-standing.js";
import {
  initialEngineState,
  type EngineState,
  type TaskMeta,
} from "../../../../src/records/engine-state.js";
import type { State } from "../../../../src/protocol/fsm.js";
import { dispatchedLedger } from "../../../support/engine/task-ledger.js";

const meta = (status: TaskMeta["status"]): TaskMeta => ({
  thread: "dispatch:api",
  branch: "cfa/1-api",
  dir: "tasks/api",
  base: "a".repeat(40),
  brief: "Build the API",
  status,
  verifyFailures: 0,
});
const ledger = dispatchedLedger;
const engine = (more: Partial<EngineState> = {}): EngineState => ({
  ...initialEngineState("ana"),
  tasks: { api: meta("open") },
  fanout: { tasks: { api: ledger(2) } },
  ...more,
});
const standing = (state: State, e: EngineState, epoch = 2) =>
  taskRunStanding({ state }, e, "api", epoch);

describe("a task run's standing", () => {
  it("works as the ledger's epoch of an open task in a live job, on the task's branch", () => {
    expect(standing("EXECUTE", engine())).toEqual({
      ok: true,
      ledger: ledger(2),
      branch: "cfa/1-api",
    });
  });

  it.each([
    [
      "a stale epoch",
      "EXECUTE",
      engine(),
      1,
      /epoch 1 is stale: the lead dispatched task api again \(epoch 2\)/,
    ],
    ["an epoch never dispatched", "EXECUTE", engine(), 3, /never dispatched epoch 3/],
    ["a withdrawn job", "WITHDRAWN", engine(), 2, /the job is WITHDRAWN/],
    ["a finished job", "DONE", engine(), 2, /the job is DONE/],
    [
      "a paused job",
      "EXECUTE",
      engine({ paused: { by: "ana", since: "t", reason: "" } }),
      2,
      /paused/,
    ],
    [
      "a merged task",
      "EXECUTE",
      engine({ tasks: { api: meta("merged") } }),
      2,
      /task api is merged/,
    ],
    [
      "a dropped task",
      "EXECUTE",
      engine({ tasks: { api: meta("dropped") } }),
      2,
      /task api is dropped/,
    ],
    ["an unknown task", "EXECUTE", engine({ tasks: {} }), 2, /no task api/],
    [
      "a task the lead runs itself",
      "EXECUTE",
      engine({ fanout: { tasks: {} } }),
      2,
      /the lead runs task api/,
    ],
    [
      "a job fallen back to single",
      "EXECUTE",
      engine({ fanout: { single: "no task job", tasks: { api: ledger(2) } } }),
      2,
      /the lead runs task api/,
    ],
  ] as const)("exits for %s", (_name, state, e, epoch, why) => {
    const s = standing(state, e, epoch);
    expect(s.ok).toBe(false);
    expect(s.ok ? "" : s.reason).toMatch(why);
  });
});
