// A worker in its task's own run asks a question. Its turn ends there; the turn's record carries
// the question to the lead, whose run poses it as the worker's own [ask-step]
// (docs/protocol.md#escalation) — put to the person under EXECUTE's default policy — and the answer
// is the worker's next mail: the lead dispatches the task's next run (epoch 2) once the answer is
// there, not before (a run started before would find nothing to do and count as a death), and that
// run resumes the worker's conversation with the answer as its ask_question's result. Task mode
// runs both runs on the job's scripted model (runTaskInItsRun), pushing to the lead's repository.

import { describe, expect, it } from "vitest";
import { runTaskInItsRun, helloAsksRecording } from "../support/engine/task-run-pushes.js";
import {
  approvedToDone,
  dispatchedToRuns,
  expectRunDone,
  PER_TASK,
  recordedRuns,
} from "../support/engine/task-run-jobs.js";
import { wake } from "../../src/engine/index.js";
import { asConversationModel, git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { say as comment } from "../support/engine/person.js";
import { state } from "../support/engine/inspect.js";

describe("a worker's question from its task's own run", () => {
  const newJob = useLocalJobs();

  // The asking run may end cleanly or die after its record was pushed (its runner lost, say):
  // either way the question was folded, and the next run waits for the answer.
  it.each([
    { conclusion: "success", deaths: 0 },
    { conclusion: "failure", deaths: 1 },
  ] as const)(
    "per-task: hello's worker asks in run 901 (which ends: $conclusion), the lead's run opens q3 for the person, epoch 2 is dispatched only once answered (3 dispatches; a death counted when it failed), run 903 carries on from the answer, the lead folds, verifies, merges — DONE",
    async ({ conclusion, deaths }) => {
      const job = await newJob({
        recording: helloAsksRecording(),
        config: PER_TASK,
      });
      const runs = recordedRuns();
      const deps = await dispatchedToRuns(job, runs.port); // hello in run 901, world in run 902
      expect(runs.dispatched).toHaveLength(2);

      // The question ends hello's turn in its run: the record carries it, the task is not done.
      expect(await runTaskInItsRun(job, "hello", "901")).toEqual({
        stopped: null,
        turns: 1,
        done: false,
      });
      const record = JSON.parse(
        git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/000001-e1.json"),
      ) as { done: boolean; sends: unknown[] };
      expect(record).toMatchObject({
        done: false,
        sends: [
          {
            to: "project-lead@state:execute:1",
            kind: "ask",
            text: "hello or hullo?",
            toolUseId: "toolu_ask1",
          },
        ],
      });
      expect(await runTaskInItsRun(job, "world", "902")).toMatchObject({ done: true });
      runs.ended.set("901", { status: "completed", conclusion });
      runs.ended.set("902", { status: "completed", conclusion: "success" });

      let summary = await wake(1, deps);
      // The question reached the person as the worker's own (EXECUTE's policy by default), and
      // nothing was dispatched for hello meanwhile: its worker waits on the answer.
      const escalations = state(job).engine.escalations as Record<string, Record<string, unknown>>;
      expect(escalations.q3).toMatchObject({
        caller: "worker@dispatch:hello",
        kind: "question",
        text: "hello or hullo?",
        toolUseId: "toolu_ask1",
      });
      expect(summary.waitingOn).toBe("@ana to answer `q3` (`/answer <id> <text>`).");
      expect(runs.dispatched).toHaveLength(2);
      const fanout = state(job).engine.fanout as { tasks: Record<string, object> };
      expect(fanout.tasks.hello).toMatchObject({ epoch: 1, runId: null, deaths });
      expect(await wake(1, deps)).toMatchObject({ waitingOn: summary.waitingOn });
      expect(runs.dispatched).toHaveLength(2);

      // The answer is the worker's mail: hello's next run is dispatched at epoch 2, once.
      await comment(job, "/answer q3 hello, of course");
      summary = await wake(1, deps);
      expect(runs.dispatched).toEqual([
        { job: 1, task: "hello", epoch: 1 },
        { job: 1, task: "world", epoch: 1 },
        { job: 1, task: "hello", epoch: 2 },
      ]);
      expect(summary.waitingOn).toBe("the tasks' own runs: hello (run 903).");

      // Run 903 resumes the conversation: the answer is its ask_question's result.
      await expectRunDone(job, "hello", "903", { epoch: 2 });
      const transcript = git(job.repoDir, "show", "cfa/1-hello:.cfa/turns/transcript.jsonl");
      expect(transcript).toContain('"tool_use_id":"toolu_ask1"');
      expect(transcript).toContain("hello, of course");
      runs.ended.set("903", { status: "completed", conclusion: "success" });

      await approvedToDone(job, deps, await wake(1, deps));
      expect(git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1")).not.toContain(".cfa/turns");
      expect(runs.dispatched).toHaveLength(3);
      expect(asConversationModel(job.model).unplayed()).toEqual({});
    },
  );
});
