// A failing setup makes the job wait for the person, with the command and its last
// lines in the status comment — not a state-level failure, no retry spent, no agent working
// in a broken workspace — and it carries on once the config is fixed (`cfa resume`, `/retry`).
// The setup that runs is always the default branch's: an agent that rewrites
// `.github/cfa.yml` on the job branch does not get its setup command run, not in a task
// worktree made from that branch, not in a job worktree rebuilt on a new runner.

import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { wake } from "../../src/engine/index.js";
import { applyPersonAction } from "../../src/cli/person-action.js";
import { jobNeedsWake } from "../../src/worker/job-needs-wake.js";
import { engineState } from "../../src/records/engine-state.js";
import { parseConfig } from "../../src/config/index.js";
import { parseJobRecord } from "../../src/protocol/job-record.js";
import { bwrapSuite, fixtureRoot } from "../support/sandbox/sandbox-fixtures.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { ANA, approve, commitConfig, openJob, say } from "../support/engine/person.js";
import { botComments, fileOnBranch, setupOf, state } from "../support/engine/inspect.js";
import { call, recording, say as sayStep, tools } from "../support/engine/script.js";
import {
  INTENT_STEPS,
  PLAN_STEPS,
  finish,
  gate,
  pass,
  worker,
  writeArtifact,
} from "../support/engine/recordings.js";

// Setup commands run in the real sandbox.
const { bit, skipped } = bwrapSuite();

const newJob = useLocalJobs();

describe(`a failing setup${skipped}`, () => {
  bit(
    "waits with the command and its last lines; /retry and cfa resume try again; a fixed config carries on, no retry spent",
    async () => {
      const broken =
        "setup: [\"echo installing; echo 'npm ERR! 404 left-pad is not in this registry' >&2; exit 3\"]\n";
      const job = await newJob({
        root: await fixtureRoot("cfa-e2e-setup-wait-"),
        config: broken,
        recording: recording({ "intent-lead@state:intent:1": INTENT_STEPS() }),
      });
      await openJob(job);

      const first = await wake(1, job.deps);
      expect(first.state).toBe("INTENT");
      expect(first.waitingOn).toContain("to fix the workspace setup");
      expect(first.waitingOn).toContain("exited 3");
      const record = state(job);
      expect(record.failures).toBe(0); // not a state-level failure
      expect(record.turns).toBe(0); // no agent worked in the broken workspace
      expect(setupOf(job)?.failed).toMatchObject({ exitCode: 3 });
      expect(setupOf(job)?.failed?.tail).toContain("npm ERR! 404 left-pad is not in this registry");
      const status = (await botComments(job)).find((c) => c.block.kind === "status");
      expect(status?.body).toContain("Setup failed in `job`:");
      expect(status?.body).toContain("exited 3");
      expect(status?.body).toContain("npm ERR! 404 left-pad is not in this registry");
      // The sweep leaves it alone: it waits on the person, like a gate.
      const engine = engineState(parseJobRecord(fileOnBranch(job, ".cfa/jobs/1/state.json")!, "s"));
      const facts = {
        state: "INTENT" as const,
        engine,
        issue: { state: "open" as const, labels: ["cfa"] },
        label: "cfa",
        latestComment: engine.cursor.comment,
        latestReview: engine.cursor.review,
      };
      expect(jobNeedsWake(facts)).toEqual([]);

      // Another wake with nothing new does not run the failing setup again.
      await wake(1, job.deps);
      expect(setupOf(job)?.runs).toHaveLength(1);

      // `/retry` (authority-checked like every command) runs it again: still broken.
      await say(job, "/retry");
      const retried = await wake(1, job.deps);
      expect(setupOf(job)?.runs).toHaveLength(2);
      expect(retried.waitingOn).toContain("to fix the workspace setup");

      // Locally, `cfa resume` is the same: it says /retry for the person.
      await applyPersonAction(job.forge, job.repoDir, ANA, { action: "resume", job: 1 });
      await wake(1, job.deps);
      expect(setupOf(job)?.runs).toHaveLength(3);

      // The person fixes the config on the default branch: the next wake sets up and works.
      await commitConfig(job, 'setup: ["echo fixed"]\n');
      const fixed = await wake(1, job.deps, { maxTurns: 1 });
      expect(setupOf(job)?.failed).toBeUndefined();
      expect(setupOf(job)?.runs.at(-1)).toMatchObject({
        workspace: "job",
        ok: true,
        commands: [{ command: "echo fixed", exitCode: 0 }],
      });
      expect(state(job).turns).toBe(1);
      expect(state(job).failures).toBe(0);
      expect(fixed.waitingOn).not.toContain("setup");
      expect(fileOnBranch(job, ".cfa/jobs/1/INTENT.md")).toContain("Objective");
    },
    120_000,
  );

  bit(
    "/retry with nothing waiting is refused with one line, and changes nothing",
    async () => {
      const job = await newJob({
        root: await fixtureRoot("cfa-e2e-setup-retry-"),
        config: 'setup: ["true"]\n',
        recording: recording({ "intent-lead@state:intent:1": INTENT_STEPS() }),
      });
      await openJob(job);
      await wake(1, job.deps);
      await say(job, "/retry");
      await wake(1, job.deps);
      const refusals = (await botComments(job)).filter((c) => c.block.kind === "refusal");
      expect(refusals.map((c) => c.body).join("\n")).toContain("nothing is waiting for `/retry`");
    },
    60_000,
  );
});

describe(`setup comes from the default branch only${skipped}`, () => {
  bit(
    "an agent's setup command written to .github/cfa.yml on the job branch is never run: not in a task, not in a rebuilt job worktree",
    async () => {
      const config = 'escalation: { INTENT: never, PLAN: never }\nsetup: ["echo default-setup"]\n';
      const planted =
        'escalation: { INTENT: never, PLAN: never }\nsetup: ["echo planted > PWNED", "echo default-setup"]\n';
      const approveGate = () => [tools(call("answer", { text: "approved" }))];
      const job = await newJob({
        root: await fixtureRoot("cfa-e2e-setup-branch-"),
        config,
        recording: recording({
          "intent-lead@state:intent:1": [
            tools(call("write_file", { path: ".github/cfa.yml", content: planted })),
            ...INTENT_STEPS(),
          ],
          "proxy@escalation:q1": approveGate(),
          "project-lead@state:plan:1": PLAN_STEPS(),
          "proxy@escalation:q2": approveGate(),
          "project-lead@state:execute:1": [
            tools(call("dispatch", { id: "t", brief: "Create t.txt", files: [] })),
            sayStep("Dispatched."),
            tools(call("close", { task: "t" })),
            writeArtifact("WORK_SUMMARY.md", "# Summary\n\nt.txt exists.\n"),
            gate("WORK_SUMMARY.md"),
            finish("APPROVED_WORK"),
          ],
          "worker@dispatch:t": worker("t.txt"),
          "verifier@verify:t-1": pass(),
        }),
      });
      await openJob(job);
      const first = await wake(1, job.deps);
      expect(first.waitingOn).toContain("review WORK_SUMMARY.md");
      // The agent's config is on the job branch, and the task's worktree was made from it; read
      // from there it would run the planted command (the positive control)…
      expect(fileOnBranch(job, ".github/cfa.yml")).toBe(planted.trimEnd());
      const fromJobBranch = parseConfig(fileOnBranch(job, ".github/cfa.yml"));
      expect(fromJobBranch.ok && fromJobBranch.config.setup.commands[0]).toEqual([
        "sh",
        "-c",
        "echo planted > PWNED",
      ]);
      // …yet every setup ran the default branch's command, and nothing planted ever ran.
      const ran = () =>
        setupOf(job)!.runs.map((r) => [r.workspace, r.commands.map((c) => c.command)]);
      expect(ran()).toEqual([
        ["job", ["echo default-setup"]],
        ["t", ["echo default-setup"]],
      ]);

      // A new runner: the job's area is gone, the worktree is rebuilt from the job branch.
      await rm(join(job.workRoot, "1"), { recursive: true, force: true });
      execFileSync("git", ["worktree", "prune"], { cwd: job.repoDir });
      await approve(job);
      const done = await wake(1, job.deps);
      expect(done.state).toBe("DONE");
      expect(ran()).toEqual([
        ["job", ["echo default-setup"]],
        ["t", ["echo default-setup"]],
        ["job", ["echo default-setup"]],
      ]);
      expect(fileOnBranch(job, "PWNED")).toBeNull();
      expect(git(job.repoDir, "log", "--all", "--format=%H", "--", "PWNED")).toBe("");
    },
    120_000,
  );
});
