import { afterEach, describe, expect, it } from "vitest";
import { useGitHubMocks } from "../../support/github/index.js";
import { happyRecording } from "./happy-recording.js";
import { ROUTES } from "./fake-github.js";
import { createGitHubJob, git, type GitHubJob } from "./github-job.js";

const ART = ".cfa/jobs/1";
const TOKEN_CALL = "apps/create-installation-access-token";

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
