import { describe, expect, it } from "vitest";
import { memoForge } from "../../../../src/engine/job/forge-memo.js";
import type { Comment, Forge, JobView, PullRequest } from "../../../../src/ports/forge.js";

function countingForge() {
  const calls: string[] = [];
  const comments: Comment[] = [
    { id: 1, author: { login: "ana", type: "User" }, body: "hi", createdAt: "t", url: "u" },
  ];
  let pullRequest: PullRequest | null = null;
  let nextId = 2;
  let changed = false;
  const forge = {
    botLogin: "cfa-bot[bot]",
    repoUrl: "https://github.com/o/r",
    secret: "kept on the instance",
    async readJob(n: number, head: string): Promise<JobView> {
      calls.push(`readJob ${n} ${head}`);
      return {
        issue: {
          number: n,
          title: "t",
          body: "",
          author: { login: "ana", type: "User" },
          labels: ["cfa"],
          state: "open",
          url: "u",
        },
        comments: comments.map((c) => ({ ...c })),
        pullRequest: pullRequest && { ...pullRequest },
        reviews: [],
        labelEvents: [],
      };
    },
    async issueChanged(n: number) {
      calls.push(`issueChanged ${n} ${changed}`);
      return changed;
    },
    async createComment(_issue: number, body: string) {
      calls.push("createComment");
      const c = {
        id: nextId++,
        author: { login: "cfa-bot[bot]", type: "Bot" as const },
        body,
        createdAt: "t",
        url: "u",
      };
      comments.push(c);
      return { ...c };
    },
    async updateComment(id: number, body: string) {
      calls.push("updateComment");
      comments.find((c) => c.id === id)!.body = body;
    },
    async createPullRequest(request: { head: string; base: string }) {
      calls.push("createPullRequest");
      pullRequest = {
        number: 9,
        head: request.head,
        base: request.base,
        draft: true,
        state: "open",
        url: "u",
        author: { login: "cfa-bot[bot]", type: "Bot" },
      };
      return { ...pullRequest };
    },
    async markReadyForReview() {
      calls.push("markReadyForReview");
    },
    async permission(this: { secret: string }) {
      calls.push(`permission ${this.secret}`);
      return "write";
    },
  } as unknown as Forge;
  const personComments = (body: string) => {
    comments.push({
      id: nextId++,
      author: { login: "ana", type: "User" },
      body,
      createdAt: "t",
      url: "u",
    });
    changed = true;
  };
  return { forge, calls, setChanged: (value: boolean) => (changed = value), personComments };
}

describe("memoForge", () => {
  it("reads the issue, comments, pull request and reviews in one go, and applies the bot's own writes", async () => {
    const { forge, calls } = countingForge();
    const memo = memoForge(forge);
    await memo.getIssue(1);
    expect((await memo.listComments(1)).map((c) => c.id)).toEqual([1]);
    expect(await memo.findPullRequest("cfa/1")).toBeNull();
    const created = await memo.createComment(1, "status");
    await memo.updateComment(created.id, "status, edited");
    expect((await memo.listComments(1)).map((c) => [c.id, c.body])).toEqual([
      [1, "hi"],
      [2, "status, edited"],
    ]);
    const pr = await memo.createPullRequest({
      head: "cfa/1",
      base: "main",
      title: "t",
      body: "b",
      draft: true,
    });
    await memo.markReadyForReview(pr.number);
    expect(await memo.findPullRequest("cfa/1")).toMatchObject({ number: 9, draft: false });
    expect(await memo.listReviews(9)).toEqual([]);
    expect(calls).toEqual([
      "readJob 1 cfa/1",
      "createComment",
      "updateComment",
      "createPullRequest",
      "markReadyForReview",
    ]);
  });

  it("after refresh() it asks whether the issue moved, and reads again only if it did", async () => {
    const { forge, calls, setChanged } = countingForge();
    const memo = memoForge(forge);
    await memo.listComments(1);
    memo.refresh();
    await memo.listComments(1);
    await memo.listComments(1);
    setChanged(true);
    memo.refresh();
    await memo.listComments(1);
    await memo.getIssue(1);
    expect(calls).toEqual([
      "readJob 1 cfa/1",
      "issueChanged 1 false",
      "issueChanged 1 true",
      "readJob 1 cfa/1",
    ]);
  });

  it("a refresh right after a read still sees what a person posted after it", async () => {
    // The intervention poll at each model-call boundary (so /intervene preempts within one
    // call) refreshes right after the previous poll's read: a refresh that trusted that read
    // would miss /intervene.
    const { forge, personComments } = countingForge();
    const memo = memoForge(forge);
    memo.refresh();
    await memo.listComments(1);
    personComments("/intervene stop and use Go");
    memo.refresh();
    expect((await memo.listComments(1)).map((c) => c.body)).toContain("/intervene stop and use Go");
  });

  it("passes every other call to the forge itself, bound to it", async () => {
    const { forge, calls } = countingForge();
    expect(await memoForge(forge).permission("ana")).toBe("write");
    expect(calls).toEqual(["permission kept on the instance"]);
    expect(memoForge(forge).botLogin).toBe("cfa-bot[bot]");
  });
});
