import { describe, expect, it } from "vitest";
import { useGitHubMocks } from "../../support/github/index.js";
import { happyRecording } from "../../support/engine/recordings.js";
import { git, jobRecord, WHOLE_JOB_ROUTES } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";

const TOKEN_CALL = "apps/create-installation-access-token";

describe("a whole job on GitHub (nock), from the labelled issue to DONE, app and worker", () => {
  const mocks = useGitHubMocks();
  const newJob = useGitHubJobs();

  it("runs INTENT → PLAN → EXECUTE → DONE with every GitHub call mocked, validated and counted", async () => {
    // Exactly the endpoints a whole job uses; each must be called (no pending mocks). The
    // wake's reads are one GraphQL query; the issue is polled with conditional requests.
    const job = await newJob({
      recording: happyRecording({ anyOrder: true }),
      routes: WHOLE_JOB_ROUTES,
      issue: { title: "Greet the world", body: "Two files please" },
    });
    const { github } = job;
    // What counts against the rate limit: every request but a 304 to a conditional one
    // ("Making a conditional request does not count against your primary rate limit if a 304
    // response is returned", docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
    const counts: Record<string, { counted: number; notModified: number }> = {};
    const measure = async (what: string, step: () => Promise<unknown>) => {
      const before = github.answered.length;
      await step();
      const answered = github.answered.slice(before);
      counts[what] = {
        counted: answered.filter((a) => a.status !== 304).length,
        notModified: answered.filter((a) => a.status === 304).length,
      };
    };

    // The person labels the issue: the app acknowledges and cues the worker.
    await measure("app: label", () => job.probot.receive("issues", job.labelled(1, "ana")));
    expect(github.dispatches).toEqual([{ workflow: "cfa.yml", ref: "main", job: "1" }]);
    expect(github.reactions).toEqual([
      { target: "/repos/octo-org/hello-world/issues/1/reactions", content: "eyes" },
    ]);

    const gates = ["worker: INTENT", "worker: PLAN", "worker: EXECUTE"];
    for (const [i, gate] of gates.entries()) {
      let code = -1;
      await measure(gate, async () => (code = await job.runWorker(1)));
      expect(code, job.lines.join("\n")).toBe(0);
      const pull = github.pulls[0]!;
      expect(pull.draft).toBe(true);
      // The body is kept current: it says the state the job is in at each gate.
      expect(pull.body).toContain(`State: **${["INTENT", "PLAN", "EXECUTE"][i]}**`);
      // The person approves the gate's commit on GitHub; the app cues the worker.
      await measure(`app: review ${i + 1}`, () => job.submitReview("ana"));
      expect(github.dispatches).toHaveLength(i + 2);
      expect(jobRecord(job).state).toBe(["INTENT", "PLAN", "EXECUTE"][i]);
    }
    await measure("worker: DONE", async () => expect(await job.runWorker(1)).toBe(0));

    expect(jobRecord(job).state).toBe("DONE");
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
    // The body kept current: at DONE it says DONE and the last step, once per transition.
    expect(github.pulls[0]!.body).toContain("State: **DONE** — the work is approved");
    expect(github.pulls[0]!.body).toContain("Last step: EXECUTE → DONE");
    expect(github.pulls[0]!.body).not.toContain("State: **INTENT**");
    // One status comment, edited in place, and it says DONE.
    const status = github.botComments(1).filter((c) => c.body.includes('"kind":"status"'));
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain("DONE");
    // Nothing the bot posted carries the worker's token.
    for (const c of github.comments) expect(c.body).not.toContain("ghs_e2eWorkerToken");

    const total = Object.values(counts).reduce((a, b) => a + b.counted, 0);
    const free = Object.values(counts).reduce((a, b) => a + b.notModified, 0);
    const byOperation = new Map<string, number>();
    for (const c of mocks.recorder().calls()) {
      if (c.operationId === TOKEN_CALL) continue;
      byOperation.set(c.operationId ?? "?", (byOperation.get(c.operationId ?? "?") ?? 0) + 1);
    }
    console.log(
      `GitHub API calls for one job (INTENT → DONE, 3 gates, 2 tasks): ${total} counted against the rate limit, and ${free} conditional requests answered 304 (free)\n` +
        Object.entries(counts)
          .map(
            ([k, v]) =>
              `  ${k}: ${v.counted}${v.notModified > 0 ? ` (+${v.notModified} × 304)` : ""}`,
          )
          .join("\n") +
        "\n  by operation (304s included): " +
        [...byOperation].map(([k, v]) => `${k}=${v}`).join(", "),
    );
    // A job of three gates and two tasks costs at most 60 calls (it cost 108): GITHUB_TOKEN
    // allows 1,000 requests an hour per repository, shared with its other workflows
    // (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api).
    expect(total).toBeLessThanOrEqual(60);
    expect(github.graphqlProblems).toEqual([]);
    expect(mocks.recorder().invalid()).toEqual([]);
  });
});
