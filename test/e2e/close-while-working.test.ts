// A lead that closes a task while the task's worker is still in a turn (turns run without a
// round barrier, applied as they end): the worker's turn runs to its end and is committed on
// its branch first, then the verifier verifies that commit and the merge takes exactly it —
// whatever runs the worker (here the lead's own run, as after a takeover). Cut short, the
// worker's files were thrown away and the verifier passed the branch without them.

import { describe, expect, it } from "vitest";
import type { Model } from "../../src/ports/model.js";
import type { ProgressLine } from "../../src/engine/index.js";
import { INTENT_STEPS, PLAN_STEPS, pass, summedUp, worker } from "../support/engine/recordings.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { openJob } from "../support/engine/person.js";
import { driveToEnd } from "../support/engine/drive.js";
import { fileOnBranch, state } from "../support/engine/inspect.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";

const job1 = recording({
  "intent-lead@state:intent:1": INTENT_STEPS(),
  "project-lead@state:plan:1": PLAN_STEPS(),
  "project-lead@state:execute:1": [
    tools(
      call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] }),
      call("dispatch", { id: "world", brief: "Create world.txt containing world", files: [] }),
    ),
    say("Dispatched two tasks."),
    // On world's reply, with hello's worker still in its first turn: both closed.
    tools(call("close", { task: "world" }), call("close", { task: "hello" })),
    ...summedUp("Both files exist."),
  ],
  "worker@dispatch:hello": [
    tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
    say("done"),
  ],
  "worker@dispatch:world": worker("world.txt"),
  "verifier@verify:hello-1": pass(),
  "verifier@verify:world-1": pass(),
});

describe("closing a task whose worker is in a turn", () => {
  const newJob = useLocalJobs();

  it("the worker's turn ends and is committed first, the verifier verifies that commit (hello.txt in it), the merge takes it: hello.txt on cfa/1 at DONE", async () => {
    // hello's first call is held until its lead's close has reached hello: a close that waits
    // for the turn says so (a WAIT line); one that cuts it short runs hello's verifier at once.
    let release!: () => void;
    const closing = new Promise<void>((resolve) => (release = resolve));
    const job = await newJob({ recording: job1, applyOrder: "finished" });
    const inner = job.model;
    const model: Model = {
      ...inner,
      complete: async (request, options) => {
        const step = request.messages.filter((m) => m.role === "assistant").length;
        if (request.instance === "verifier@verify:hello-1") release();
        if (request.instance === "worker@dispatch:hello" && step === 0) await closing;
        return inner.complete(request, options);
      },
    };
    const deps = {
      ...job.deps,
      model,
      progress: (line: ProgressLine) => {
        job.deps.progress?.(line);
        if (line.who === "worker@dispatch:hello" && line.event === "WAIT") release();
      },
    };
    await openJob(job);
    expect((await driveToEnd(job, deps)).state).toBe("DONE");
    const engine = state(job).engine as { tasks: Record<string, { verifiedHead?: string }> };
    const verified = engine.tasks["hello"]?.verifiedHead;
    expect(git(job.repoDir, "show", `${verified}:hello.txt`)).toBe("hello");
    expect(fileOnBranch(job, "hello.txt")).toBe("hello");
    expect(fileOnBranch(job, "world.txt")).toBe("world.txt");
  });
});
