// Acting as the app for hours (a token lives one hour, a work job up to 340 minutes): the worker,
// given the app's id and private key, mints installation tokens with @octokit/auth-app and mints
// the next one before the last one's hour is out, for its API calls (the real Octokit over nock,
// validated against GitHub's OpenAPI description) and for git (real git over HTTP to
// `git http-backend`, which takes only a token GitHub still accepts). Here one agent turn lasts two
// hours.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { testPrivateKey, useGitHubMocks } from "../../support/github/index.js";
import { FIRST_WAKE_ROUTES, routesWith } from "../../support/github/github-job.js";
import { useGitHubJobs } from "../../support/github/use-github-jobs.js";
import { happyRecording } from "../../support/engine/recordings.js";

const HOURS = 60 * 60_000;

describe("the worker acting as the app", () => {
  useGitHubMocks();
  const newJob = useGitHubJobs();

  it("a token that expires in the middle of a wake is replaced before GitHub refuses it: the API calls and pushes after a two-hour turn carry the next one", async () => {
    const job = await newJob({
      routes: routesWith(FIRST_WAKE_ROUTES, { plus: ["installation", "access-tokens"] }),
      recording: happyRecording({ anyOrder: true }),
      asApp: true,
      // The intent lead's first turn takes two hours by the worker's clock (and GitHub's).
      beforeModelCall: (call, clock) => {
        if (call === 1) clock.advance(2 * HOURS);
      },
    });
    const { github } = job;

    expect(await job.runWorker(1), job.lines.join("\n")).toBe(0);

    // The wake reached its gate: the pull request, the gate's comment and the status.
    expect(github.pulls).toHaveLength(1);
    expect(github.botComments(1).map((c) => readHiddenBlock(c.body)?.kind)).toEqual([
      "gate",
      "status",
    ]);
    // GitHub refused nothing: no request, API or git, went out with a lapsed token.
    expect(github.refusedCredentials).toEqual([]);
    expect(job.gitRequests.filter((r) => r.status !== 200)).toEqual([]);

    // One token before the long turn, the next one after it.
    expect(github.minted.map((m) => m.token)).toHaveLength(2);
    const [first, second] = github.minted.map((m) => m.token) as [string, string];
    const apiTokens = github.tokensUsed.map((u) => u.token);
    expect(apiTokens).toContain(first);
    expect(apiTokens).toContain(second);
    // Once the second is minted, the first is never sent again.
    expect(apiTokens.slice(apiTokens.indexOf(second))).not.toContain(first);
    // Git: the job's first push with the first token, the gate's push with the second.
    const pushes = job.gitRequests.filter((r) => r.service === "git-receive-pack");
    expect(pushes.map((p) => p.token)).toContain(first);
    expect(pushes.at(-1)?.token).toBe(second);
    const gitTokens = job.gitRequests.map((r) => r.token);
    expect(gitTokens.slice(gitTokens.indexOf(second))).not.toContain(first);

    // The private key and the tokens reach nothing the bot writes or logs.
    const written = [...github.comments.map((c) => c.body), ...job.lines].join("\n");
    for (const secret of [first, second, testPrivateKey().split("\n")[1]!]) {
      expect(written).not.toContain(secret);
    }
  });
});
