// Every merge verified: tasks still open when EXECUTE backtracks (REPLAN) are merged with the
// state's end (docs/protocol.md#workspaces), but only after the verifier passes their
// branch as it is then; a fail drops the task unmerged, with a note on the job.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approveGates, openJob } from "../support/engine/person.js";
import { commentsOfKind, fileOnBranch, foldedBus, state } from "../support/engine/inspect.js";
import { call, expecting, recording, say, tools } from "../support/engine/script.js";
import {
  INTENT_STEPS,
  PLAN_STEPS,
  finish,
  gate,
  pass,
  worker,
  writeArtifact,
} from "../support/engine/recordings.js";

const ISSUE = "bad.txt is empty of meaning";

describe("merges at a backtrack", () => {
  const newJob = useLocalJobs();

  it("open tasks pass the verifier before they merge at REPLAN; a failed one is dropped with a note", async () => {
    const model = createStrictConversationModel(
      recording({
        "intent-lead@state:intent:1": INTENT_STEPS(),
        "project-lead@state:plan:1": PLAN_STEPS(),
        "project-lead@state:execute:1": [
          tools(
            call("dispatch", { id: "good", brief: "Write good.txt", files: [] }),
            call("dispatch", { id: "bad", brief: "Write bad.txt", files: [] }),
          ),
          say("Dispatched."),
          // Neither task is closed: the backtrack ends them with the state.
          expecting(finish("REPLAN", "the plan needs a third file"), "written"),
        ],
        "worker@dispatch:good": worker("good.txt"),
        "worker@dispatch:bad": worker("bad.txt"),
        "verifier@verify:good-1": pass(),
        "verifier@verify:bad-1": [
          tools(call("verdict", { verdict: "fail", issues: [ISSUE], notes: "" })),
        ],
        "project-lead@state:plan:2": [
          writeArtifact("PLAN.md", "# Plan\n\nThree files.\n"),
          gate("PLAN.md", "Re-planned"),
        ],
      }),
    );
    const job = await newJob({ model });
    await openJob(job);
    const summary = await approveGates(job, 2, wake);
    expect(summary.state).toBe("PLAN");
    expect(model.errors).toEqual([]);
    expect(model.unplayed()).toEqual({});

    const tasks = state(job).engine.tasks as Record<string, { status: string }>;
    expect(tasks.good!.status).toBe("merged");
    expect(tasks.bad!.status).toBe("dropped");
    expect(fileOnBranch(job, "good.txt")).toBe("good.txt");
    expect(fileOnBranch(job, "bad.txt")).toBeNull();
    const verdicts = foldedBus(job).folded.audit.filter((e) => e.type === "verdict");
    expect(verdicts.map((v) => [v.task, v.verdict]).sort()).toEqual([
      ["bad", "fail"],
      ["good", "pass"],
    ]);
    // The note on the job names the task and the verifier's issues.
    const notices = (await commentsOfKind(job, "notice")).map((c) => c.body).join("\n");
    expect(notices).toContain("Task `bad` was dropped, not merged into cfa/1");
    expect(notices).toContain(ISSUE);
  });
});
