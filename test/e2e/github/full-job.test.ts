import { afterEach, describe, expect, it } from "vitest";
import { useGitHubMocks } from "../../support/github/index.js";
import { call, recording, say, tools } from "../../support/engine/script.js";
import { ROUTES } from "./fake-github.js";
import { createGitHubJob, git, type GitHubJob } from "./github-job.js";

const ART = ".cfa/jobs/1";
const TOKEN_CALL = "apps/create-installation-access-token";

function happyRecording() {
  return recording({
    "intent-lead@state:intent:1": [
      tools(call("write_file", { path: `${ART}/INTENT.md`, content: "# Intent\n\nGreet.\n" })),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Is this your intent?",
          artifact: `${ART}/INTENT.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_INTENT", reason: "approved by the person" })),
    ],
    "project-lead@state:plan:1": [
      tools(call("write_file", { path: `${ART}/PLAN.md`, content: "# Plan\n\nhello, world.\n" })),
      tools(call("ask_question", { kind: "gate", text: "Plan ready", artifact: `${ART}/PLAN.md` })),
      tools(call("finish", { outcome: "APPROVED_PLAN", reason: "approved" })),
    ],
    "project-lead@state:execute:1": [
      tools(
        call("dispatch", { id: "hello", brief: "Create hello.txt containing hello", files: [] }),
        call("dispatch", { id: "world", brief: "Create world.txt containing world", files: [] }),
      ),
      say("Dispatched two tasks."),
      tools(call("close", { task: "hello" })),
      say("Closed hello."),
      tools(call("close", { task: "world" })),
      tools(
        call("write_file", { path: `${ART}/WORK_SUMMARY.md`, content: "# Summary\n\nDone.\n" }),
      ),
      tools(
        call("ask_question", {
          kind: "gate",
          text: "Work done",
          artifact: `${ART}/WORK_SUMMARY.md`,
        }),
      ),
      tools(call("finish", { outcome: "APPROVED_WORK", reason: "approved" })),
    ],
    "worker@dispatch:hello": [
      tools(call("write_file", { path: "hello.txt", content: "hello\n" })),
      tools(call("reply", { text: "hello.txt written" })),
      say("done"),
    ],
    "worker@dispatch:world": [
      tools(call("write_file", { path: "world.txt", content: "world\n" })),
      tools(call("reply", { text: "world.txt written" })),
      say("done"),
    ],
    "verifier@verify:hello-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
    "verifier@verify:world-1": [
      tools(call("verdict", { verdict: "pass", issues: [], notes: "ok" })),
    ],
  });
}

function stateOf(job: GitHubJob): { state: string } {
  return JSON.parse(git(job.github.bare, "show", `cfa/1:${ART}/state.json`)) as { state: string };
}

describe("a whole job on GitHub (nock), from the labelled issue to DONE, app and worker", () => {
  const mocks = useGitHubMocks();
  let job: GitHubJob | undefined;
  afterEach(async () => job?.cleanup());

  it("runs INTENT → PLAN → EXECUTE → DONE with every GitHub call mocked, validated and counted", async () => {
    job = await createGitHubJob({ recording: happyRecording() });
    const { github, probot } = job;
    // Exactly the endpoints a whole job uses; each must be called (no pending mocks).
    github.install(
      ROUTES.filter(
        (r) => !["comment-reaction", "update-pull", "review-comments", "update-check"].includes(r),
      ),
    );
    github.permissions.set("ana", "write");
    github.openIssue({
      number: 1,
      title: "Greet the world",
      body: "Two files please",
      author: "ana",
      label: "cfa",
    });
    const calls = () =>
      mocks
        .recorder()
        .calls()
        .filter((c) => c.operationId !== TOKEN_CALL);
    const counts: Record<string, number> = {};
    const measure = async (what: string, step: () => Promise<unknown>) => {
      const before = calls().length;
      await step();
      counts[what] = calls().length - before;
    };

    // The person labels the issue: the app acknowledges and cues the worker.
    await measure("app: label", () => job!.probot.receive("issues", job!.labelled(1, "ana")));
    expect(github.dispatches).toEqual([{ workflow: "cfa.yml", ref: "main", job: "1" }]);
    expect(github.reactions).toEqual([
      { target: "/repos/octo-org/hello-world/issues/1/reactions", content: "eyes" },
    ]);

    const gates = ["worker: INTENT", "worker: PLAN", "worker: EXECUTE"];
    for (const [i, gate] of gates.entries()) {
      let code = -1;
      await measure(gate, async () => (code = await job!.runWorker(1)));
      expect(code, job.lines.join("\n")).toBe(0);
      const pull = github.pulls[0]!;
      expect(pull.draft).toBe(true);
      // The person approves the gate's commit on GitHub; the app cues the worker.
      const review = github.review({
        pull: pull.number,
        login: "ana",
        state: "APPROVED",
        commitId: github.head("cfa/1"),
      });
      await measure(`app: review ${i + 1}`, () =>
        probot.receive(
          "pull_request_review",
          job!.reviewed(pull.number, {
            id: review.id,
            login: "ana",
            state: "approved",
            commitId: review.commitId,
          }),
        ),
      );
      expect(github.dispatches).toHaveLength(i + 2);
      expect(stateOf(job).state).toBe(["INTENT", "PLAN", "EXECUTE"][i]);
    }
    await measure("worker: DONE", async () => expect(await job!.runWorker(1)).toBe(0));

    expect(stateOf(job).state).toBe("DONE");
    const files = git(github.bare, "ls-tree", "-r", "--name-only", "cfa/1");
    expect(files).toContain("hello.txt");
    expect(files).toContain("world.txt");
    // Task branches merged and deleted; the pull request left draft for a person to merge.
    expect(github.branches().sort()).toEqual(["cfa/1", "main"]);
    expect(github.pulls[0]).toMatchObject({
      draft: false,
      state: "open",
      head: "cfa/1",
      base: "main",
    });
    // One status comment, edited in place, and it says DONE.
    const status = github.botComments(1).filter((c) => c.body.includes('"kind":"status"'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain("DONE");
    // Nothing the bot posted carries the worker's token.
    for (const c of github.comments) expect(c.body).not.toContain("ghs_e2eWorkerToken");

    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const byOperation = new Map<string, number>();
    for (const c of calls())
      byOperation.set(c.operationId ?? "?", (byOperation.get(c.operationId ?? "?") ?? 0) + 1);
    console.log(
      `GitHub API calls for one job (INTENT → DONE, 3 gates, 2 tasks): ${total}\n` +
        Object.entries(counts)
          .map(([k, v]) => `  ${k}: ${v}`)
          .join("\n") +
        "\n  by operation: " +
        [...byOperation].map(([k, v]) => `${k}=${v}`).join(", "),
    );
    expect(mocks.recorder().invalid()).toEqual([]);
  });
});
