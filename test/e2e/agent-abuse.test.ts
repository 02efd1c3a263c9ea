// An agent wedging its job, end to end: a recorded job whose worker's command makes a tree 2,000
// folders deep and a 101 MiB file (sparse: `truncate`) beside its real work. Before, the
// after-command check threw on the tree and every later wake did (the job was wedged), and the file
// was committed, so GitHub refused the push and every later one. Through the real engine, git and
// sandbox, the job must reach its gate: the worker told what was removed and what was left out, the
// task verified and merged, nothing past the bounds and no file over limits.fileMiB on the branch,
// and the branch pushed to a stand-in for GitHub (its file size limit as a pre-receive hook) — at
// the gate and again after the person approves.

import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { MAX_TREE_DEPTH } from "../../src/agents/boundary/tree-limits.js";
import { MIB } from "../../src/git/file-size-limit.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approve, openJob } from "../support/engine/person.js";
import { fileOnBranch, state, transcript, userTexts } from "../support/engine/inspect.js";
import { ONE_TASK_EXECUTE_STEPS, pass, proxiedToExecute } from "../support/engine/recordings.js";
import { call, recording, say, tools } from "../support/engine/script.js";
import { refuseLargeFiles } from "../support/adversarial/github-file-limit.js";
import { bound } from "../support/time-bound.js";

const WORKER = "worker@dispatch:hello";
// `mkdir d; cd d` 2,000 times: 4,000 bytes of path, past PATH_MAX with the workspace's root.
const ABUSE = [
  "mkdir out && (cd out && i=0 && while [ $i -lt 2000 ]; do mkdir d && cd d || exit 1; i=$((i+1)); done && echo deep > leaf.txt)",
  "truncate -s 101M out/big.bin",
].join(" && ");

function abuseRecording() {
  return recording({
    ...proxiedToExecute(),
    "project-lead@state:execute:1": ONE_TASK_EXECUTE_STEPS(),
    [WORKER]: [
      tools(call("run_command", { argv: ["sh", "-c", ABUSE] })),
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
    ],
    "verifier@verify:hello-1": pass(),
  });
}

describe("an agent's abuse end to end", () => {
  const newJob = useLocalJobs();

  it(
    "a worker's 2,000-deep tree and 101 MiB file: the job reaches its gate, and the branch pushes then and after",
    async () => {
      const job = await newJob({
        recording: abuseRecording(),
        config: "escalation:\n  INTENT: never\n  PLAN: never\n",
      });
      await openJob(job);
      const github = join(job.root, "github.git");
      execFileSync("git", ["init", "--quiet", "--bare", github]);
      refuseLargeFiles(github);
      const push = () =>
        spawnSync("git", ["push", "--quiet", github, "cfa/1"], {
          cwd: job.repoDir,
          encoding: "utf8",
        });

      const atGate = await wake(1, job.deps);
      expect(atGate.state).toBe("EXECUTE");
      expect(atGate.waitingOn).toContain("review WORK_SUMMARY.md");
      expect(state(job).failures).toBe(0);

      // The worker was told, in the result of the command that did it.
      const told = userTexts(transcript(job, WORKER)).join("\n");
      expect(told).toMatch(/cfa: removed out\/d\/d\/…\(\d+ more\)…\/d .*at most 64 deep/u);
      expect(told).toContain("cfa: out/big.bin is 101.0 MiB, over the 10.0 MiB");

      // The branch holds the work, nothing past the bounds and no file over the limit.
      expect(fileOnBranch(job, "hello.txt")).toBe("hello");
      const tree = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1");
      expect(tree).not.toContain("big.bin");
      const deepest = Math.max(
        ...git(job.repoDir, "ls-tree", "-r", "-t", "--name-only", "cfa/1")
          .split("\n")
          .map((file) => file.split("/").length),
      );
      expect(deepest).toBeLessThanOrEqual(MAX_TREE_DEPTH + 1);
      const sizes = git(job.repoDir, "ls-tree", "-r", "-l", "cfa/1")
        .split("\n")
        .map((line) => Number(line.split(/\s+/u)[3]));
      expect(Math.max(...sizes)).toBeLessThan(10 * MIB);

      const first = push();
      expect(first.stderr).toBe("");
      expect(first.status).toBe(0);

      await approve(job);
      const done = await wake(1, job.deps);
      expect(done.state).toBe("DONE");
      const later = push();
      expect(later.stderr).toBe("");
      expect(later.status).toBe(0);
    },
    bound(120_000),
  );
});
