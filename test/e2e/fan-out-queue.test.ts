// A cap that waits (docs/protocol.md#configuration: a spark past the fan-out cap waits until the
// parent closes a child): with `fanOut: 1` the lead's second dispatch is queued, the lead is told
// so, the queued task takes no messages and cannot be closed, and it starts when the first is
// closed — on a branch made from the job branch as it is then, so it sees the first task's merged
// work.

import { describe, expect, it } from "vitest";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { wakeToDone } from "../support/engine/drive.js";
import { fileOnBranch, foldedBus, state, taskBranches } from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import { pass, approveGate, proxiedToExecute, summedUp } from "../support/engine/recordings.js";

const CONFIG = "fanOut: 1\nescalation:\n  INTENT: never\n  PLAN: never\n  EXECUTE: never\n";
const dispatch = (id: string) => call("dispatch", { id, brief: `Write ${id}.txt`, files: [] });

describe("fan-out cap", () => {
  const newJob = useLocalJobs();

  it("a dispatch past the cap waits, the agent is told, and it starts when a sibling closes", async () => {
    const model = createStrictConversationModel(
      recording({
        ...proxiedToExecute(),
        "proxy@escalation:q3": approveGate(),
        "project-lead@state:execute:1": [
          tools(dispatch("first"), dispatch("second")),
          // The second dispatch's result says it waits; a message to it is refused.
          expecting(tools(call("send", { to: "second", text: "hurry" })), "Task second is queued"),
          expecting(tools(call("close", { task: "second" })), "waits for a free slot"),
          expecting(say("Waiting for first."), "task second has not started"),
          expecting(tools(call("close", { task: "first" })), "first done"),
          say("Closed first; second starts now."),
          expecting(tools(call("close", { task: "second" })), "second done"),
          ...summedUp("first and second."),
        ],
        "worker@dispatch:first": [
          tools(call("write_file", { path: "first.txt", content: "one\n" })),
          tools(call("reply", { text: "first done" })),
          say("done"),
        ],
        "worker@dispatch:second": [
          // Its branch was made after first was merged: first.txt is there.
          tools(call("read_file", { path: "first.txt" })),
          expecting(tools(call("write_file", { path: "second.txt", content: "two\n" })), "one"),
          tools(call("reply", { text: "second done" })),
          say("done"),
        ],
        "verifier@verify:first-1": pass(),
        "verifier@verify:second-1": pass(),
      }),
    );
    const job = await newJob({ config: CONFIG, model });
    await wakeToDone(job, model);

    expect(fileOnBranch(job, "first.txt")).toBe("one");
    expect(fileOnBranch(job, "second.txt")).toBe("two");
    expect(taskBranches(job)).toEqual([]);
    const tasks = state(job).engine.tasks as Record<string, { status: string; base: string }>;
    expect(tasks.first!.status).toBe("merged");
    expect(tasks.second!.status).toBe("merged");
    // second's branch started at the merge of first.
    expect(git(job.repoDir, "log", "-1", "--format=%s", tasks.second!.base)).toBe(
      "cfa #1: merge task first",
    );

    // The bus: second was blocked, then unblocked (not sparked at dispatch).
    const events = foldedBus(job)
      .text.split("\n")
      .filter((l) => l.includes("dispatch:second"))
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(events.indexOf("block")).toBeGreaterThanOrEqual(0);
    expect(events.indexOf("unblock")).toBeGreaterThan(events.indexOf("block"));
    expect(events).not.toContain("spark");
  });
});
