// `auditTrail: drop` (docs/configuration.md): the job's records leave the tree in a last
// commit before the pull request leaves draft, and stay in the job branch's history.

import { describe, expect, it } from "vitest";
import { wake } from "../../src/engine/index.js";
import { git } from "../support/engine/local-job.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { approveGates, openJob } from "../support/engine/person.js";
import { happyRecording } from "../support/engine/recordings.js";

describe("the audit trail", () => {
  const newJob = useLocalJobs();

  it("auditTrail: drop takes .cfa/jobs/<N> out of the tree at DONE but keeps it in history, and the job stays DONE", async () => {
    const job = await newJob({ recording: happyRecording(), config: "auditTrail: drop\n" });
    await openJob(job);
    const summary = await approveGates(job, 3, wake);
    expect(summary.state).toBe("DONE");

    const tree = git(job.repoDir, "ls-tree", "-r", "--name-only", "cfa/1").split("\n");
    expect(tree.filter((f) => f.startsWith(".cfa/jobs/1/"))).toEqual([".cfa/jobs/1/state.json"]);
    expect(tree).toContain("hello.txt");
    const log = git(job.repoDir, "log", "--format=%H %s", "--grep=auditTrail: drop", "cfa/1");
    const [sha = "", subject = ""] = log.split("\n")[0]!.split(/ (.*)/);
    expect(subject).toContain("take the job's records out of the tree");
    // Still in history: the commit before the drop has the whole record.
    expect(git(job.repoDir, "show", `${sha}~1:.cfa/jobs/1/bus.jsonl`).length).toBeGreaterThan(0);
    expect((await job.forge.findPullRequest("cfa/1"))?.draft).toBe(false);

    // A later wake reads state.json and knows the job is over.
    expect((await wake(1, job.deps)).state).toBe("DONE");
  });
});
