// Follow-ups on GitHub (docs/protocol.md#jobs-and-states), as the App over the fake GitHub and
// its git side: after DONE a writer's "Request changes" cues one worker run, which starts the
// follow-up on the same branch and pull request; an outsider's gets the app's one reply and
// no run; a second request while the follow-up runs reaches its lead as an intervention, said
// in one reply; once the pull request is merged, a request gets a reply saying to open a new
// issue. The whole path is real: Probot, Octokit over HTTP, the worker as Actions runs it, git.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { examplePayload, useGitHubMocks } from "../../support/github/index.js";
import { expecting, recording, tools, call } from "../../support/engine/script.js";
import {
  approveGate,
  COMPACT_CONFIG,
  finish,
  gate,
  writeArtifact,
} from "../../support/engine/recordings.js";
import { OWNER, REPO } from "../../support/github/fake-github.js";
import { git, routesWith, WHOLE_JOB_ROUTES } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const FU = ".cfa/jobs/1.2";
const INLINE = "Say hello to the world, not to me.";
const SECOND = "And keep it on one line.";

const fuWrite = (name: string, content: string) =>
  tools(call("write_file", { path: `${FU}/${name}`, content }));
const fuGate = (name: string) =>
  tools(
    call("ask_question", { kind: "gate", text: `${name} is ready`, artifact: `${FU}/${name}` }),
  );

/**
 * Round 1 to DONE with no task, then its follow-up: intent (asked again), plan, work. The
 * person answers INTENT's gates; the proxy approves PLAN's and EXECUTE's (COMPACT), so each
 * round takes one run past its intent. Escalation ids go on across rounds: q1–q3, then q4–q7.
 */
function script() {
  return recording({
    "intent-lead@state:intent:1": [
      writeArtifact("INTENT.md", "# Intent\n\nGreet.\n"),
      gate("INTENT.md"),
      finish("APPROVED_INTENT"),
    ],
    "proxy@escalation:q2": approveGate(),
    "proxy@escalation:q3": approveGate(),
    "proxy@escalation:q6": approveGate(),
    "proxy@escalation:q7": approveGate(),
    "project-lead@state:plan:1": [
      writeArtifact("PLAN.md", "# Plan\n\nWrite hello.txt.\n"),
      gate("PLAN.md"),
      finish("APPROVED_PLAN"),
    ],
    "project-lead@state:execute:1": [
      tools(call("write_file", { path: "hello.txt", content: "hello me\n" })),
      writeArtifact("WORK_SUMMARY.md", "# Summary\n\nhello.txt greets.\n"),
      gate("WORK_SUMMARY.md"),
      finish("APPROVED_WORK"),
    ],
    "intent-lead@state:intent:2": [
      // The review's inline comment, with its diff hunk, reaches the follow-up's intent lead.
      expecting(fuWrite("INTENT.md", "# Intent\n\nGreet the world.\n"), INLINE),
      fuGate("INTENT.md"),
      // Woken on the second request ([wake-int]): it revises and asks again.
      expecting(fuWrite("INTENT.md", "# Intent\n\nGreet the world, on one line.\n"), SECOND),
      fuGate("INTENT.md"),
      finish("APPROVED_INTENT"),
    ],
    "project-lead@state:plan:2": [
      fuWrite("PLAN.md", "# Plan\n\nRewrite hello.txt.\n"),
      fuGate("PLAN.md"),
      finish("APPROVED_PLAN"),
    ],
    "project-lead@state:execute:2": [
      tools(call("write_file", { path: "hello.txt", content: "hello world\n" })),
      fuWrite("WORK_SUMMARY.md", "# Summary\n\nhello.txt greets the world.\n"),
      fuGate("WORK_SUMMARY.md"),
      finish("APPROVED_WORK"),
    ],
  });
}

describe("follow-ups on GitHub", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("after DONE: a writer's review starts one, an outsider's starts none, a second request intervenes, a merged pull request sends to a new issue", async () => {
    const job = await newJob({
      recording: script(),
      config: COMPACT_CONFIG,
      routes: routesWith(WHOLE_JOB_ROUTES, {
        // The repository has its config: the organisation's is never asked for.
        minus: ["org-content"],
        plus: ["list-comments", "comment-reaction", "get-pull", "list-checks"],
      }),
    });
    const { github, probot } = job;
    github.permissions.set("rea", "read");
    const state = (dir = ".cfa/jobs/1") =>
      (JSON.parse(git(github.bare, "show", `cfa/1:${dir}/state.json`)) as { state: string }).state;
    const dispatched = () => github.dispatches.length;
    const run = async () => expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);
    const approve = async () => {
      await job.submitReview("ana", "APPROVED");
      await run();
    };
    const repository = { name: REPO, owner: { login: OWNER }, default_branch: "main" };
    const commentOn = async (
      where: { number: number; pull: boolean; state?: "open" | "closed" },
      login: string,
      body: string,
    ) => {
      const comment = github.comment(where.number, login, body);
      await probot.receive(
        "issue_comment",
        examplePayload("issue_comment", "created", {
          repository,
          issue: {
            number: where.number,
            labels: where.pull ? [] : [{ name: "cfa" }],
            state: where.state ?? "open",
            ...(where.pull ? { pull_request: { url: "x" } } : {}),
          },
          comment: { id: comment.id, body, user: { login, type: "User" } },
          sender: { login, type: "User" },
        }),
      );
      return comment;
    };

    // Round 1 to DONE: its intent approved, the rest by the proxy.
    await probot.receive("issues", job.labelled(1, "ana"));
    await run();
    await approve();
    expect(state()).toBe("DONE");
    const doneCommit = github.head("cfa/1");
    const pull = github.pulls[0]!;

    // An outsider requests changes: the app's one reply, no run.
    const before = dispatched();
    await job.submitReview("rea", "CHANGES_REQUESTED", { body: "Change it all." });
    expect(dispatched()).toBe(before);
    const refusals = github
      .botComments(1)
      .filter((c) => readHiddenBlock(c.body)?.kind === "review-refused");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.body).toContain("@rea");

    // Ana requests changes, with an inline comment on the line it changed: one run is cued,
    // and it starts the follow-up, whose intent lead (the script checks) reads the comment.
    await job.submitReview("ana", "CHANGES_REQUESTED", {
      body: "One more round.",
      comments: [
        { path: "hello.txt", line: 1, body: INLINE, diffHunk: "@@ -0,0 +1 @@\n+hello me" },
      ],
    });
    expect(github.dispatches.slice(before)).toEqual([
      { workflow: "cfa.yml", ref: "main", job: "1" },
    ]);
    await run();
    expect(state(FU)).toBe("INTENT");
    expect(github.pulls).toHaveLength(1);

    // A second request while the follow-up runs, on the pull request: an intervention, said
    // once; the lead, woken on it, revises and asks again.
    const second = await commentOn({ number: pull.number, pull: true }, "ana", `/cfa ${SECOND}`);
    await run();
    const notices = github
      .botComments(1)
      .filter((c) => readHiddenBlock(c.body)?.kind === "notice" && c.body.includes("intervention"));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain("follow-up 2 of job #1 is running");
    expect(github.reactions).toContainEqual({
      target: `/repos/${OWNER}/${REPO}/issues/comments/${second.id}/reactions`,
      content: "eyes",
    });

    // The follow-up through its gates, to DONE; the parent's records are as they were.
    await approve();
    expect(state(FU)).toBe("DONE");
    expect(state()).toBe("DONE");
    expect(git(github.bare, "rev-parse", "cfa/1:.cfa/jobs/1")).toBe(
      git(github.bare, "rev-parse", `${doneCommit}:.cfa/jobs/1`),
    );
    expect(git(github.bare, "show", "cfa/1:hello.txt")).toBe("hello world");
    expect(github.pulls).toHaveLength(1);

    // The pull request is merged (closing the issue): a request gets one reply, no follow-up.
    github.merge(pull.number, 1);
    await commentOn({ number: 1, pull: false, state: "closed" }, "ana", "/cfa one more thing");
    await run();
    const merged = github
      .botComments(1)
      .filter((c) => readHiddenBlock(c.body)?.kind === "follow-up-refused");
    expect(merged).toHaveLength(1);
    expect(merged[0]!.body).toContain("is merged");
    expect(merged[0]!.body).toContain("Open a new issue");
    expect(
      git(github.bare, "ls-tree", "--name-only", "cfa/1:.cfa/jobs").split("\n").sort(),
    ).toEqual(["1", "1.2"]);
    // Another run reads nothing new: the reply is not repeated.
    await run();
    expect(
      github.botComments(1).filter((c) => readHiddenBlock(c.body)?.kind === "follow-up-refused"),
    ).toHaveLength(1);
  });
});
