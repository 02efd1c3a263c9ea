// Setup steps on GitHub: a failing setup leaves the job waiting with the command and its last lines
// in the status comment; `/retry` by someone with write access is cued by the app like any command
// (an outsider's is refused with no run), and the run it dispatches sets the workspace up with the
// fixed configuration — read from the default branch — and carries on.

import { describe, expect, it } from "vitest";
import { recording } from "../../support/engine/script.js";
import { ART, gate, writeArtifact } from "../../support/engine/recordings.js";
import { examplePayload, useGitHubMocks } from "../../support/github/index.js";
import { installedBwrap } from "../../support/sandbox/sandbox-fixtures.js";
import { OWNER, REPO } from "../../support/github/fake-github.js";
import { FIRST_WAKE_ROUTES, git, jobRecord, routesWith } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { bound } from "../../support/time-bound.js";

const LEAD = "intent-lead@state:intent:1";

describe.skipIf(installedBwrap() === null)("/retry on GitHub after a failed setup", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it(
    "waits with the failure in the status comment; an outsider's /retry runs nothing; the person's runs the fixed setup and the lead",
    async () => {
      const job = await newJob({
        recording: recording({
          [LEAD]: [writeArtifact("INTENT.md", "# Intent\n"), gate("INTENT.md", "Intent?")],
        }),
        config: "setup: [\"echo 'E404 left-pad' >&2; exit 7\"]\n",
        routes: routesWith(FIRST_WAKE_ROUTES, {
          plus: ["dispatch", "content", "list-comments", "comment-reaction", "update-comment"],
        }),
      });
      const { github, probot } = job;
      github.permissions.set("mallory", "read");
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
      const status = () => github.comments.find((c) => c.body.includes("cfa job #1:"))?.body ?? "";
      expect(status()).toContain("Setup failed in `job`:");
      expect(status()).toContain("exited 7");
      expect(status()).toContain("E404 left-pad");
      expect(git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1")).not.toContain(
        `${ART}/INTENT.md`,
      );

      const retry = async (login: string) => {
        const comment = github.comment(1, login, "/retry");
        await probot.receive(
          "issue_comment",
          examplePayload("issue_comment", "created", {
            repository: { name: REPO, owner: { login: OWNER }, default_branch: "main" },
            issue: { number: 1, labels: [{ name: "cfa" }], state: "open" },
            comment: { id: comment.id, body: comment.body, user: { login, type: "User" } },
            sender: { login, type: "User" },
          }),
        );
      };
      // Someone without write access: refused by the app, no run dispatched.
      const before = github.dispatches.length;
      await retry("mallory");
      expect(github.dispatches.length).toBe(before);

      // The person fixes the config on the default branch and says /retry: a run, and it works.
      github.config = 'setup: ["echo fixed"]\n';
      await retry("ana");
      expect(github.dispatches.slice(before)).toEqual([
        { workflow: "cfa.yml", ref: "main", job: "1" },
      ]);
      expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
      expect(status()).not.toContain("Setup failed");
      expect(git(github.bare, "show", `cfa/1:${ART}/INTENT.md`)).toContain("Intent");
      const record = jobRecord<{
        failures: number;
        engine: { setup: { runs: { ok: boolean }[]; failed?: unknown } };
      }>(job);
      expect(record.failures).toBe(0);
      expect(record.engine.setup.runs.map((r) => r.ok)).toEqual([false, true]);
      expect(record.engine.setup.failed).toBeUndefined();
    },
    bound(120_000),
  );
});
