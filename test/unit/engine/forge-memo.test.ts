import { describe, expect, it } from "vitest";
import { memoForge } from "../../../src/engine/forge-memo.js";
import type { Comment, Forge } from "../../../src/ports/forge.js";

function countingForge() {
  const calls: string[] = [];
  const comments: Comment[] = [
    { id: 1, author: { login: "ana", type: "User" }, body: "hi", createdAt: "t", url: "u" },
  ];
  let nextId = 2;
  const forge = {
    botLogin: "cfa-bot[bot]",
    repoUrl: "https://github.com/o/r",
    secret: "kept on the instance",
    async getIssue(n: number) {
      calls.push(`getIssue ${n}`);
      return {
        number: n,
        title: "t",
        body: "",
        author: { login: "ana", type: "User" },
        labels: ["cfa"],
        state: "open",
        url: "u",
      };
    },
    async listComments() {
      calls.push("listComments");
      return comments.map((c) => ({ ...c }));
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
    async permission(this: { secret: string }) {
      calls.push(`permission ${this.secret}`);
      return "write";
    },
  } as unknown as Forge;
  return { forge, calls };
}

describe("memoForge", () => {
  it("reads the issue and its comments once, and applies the bot's own writes to what it read", async () => {
    const { forge, calls } = countingForge();
    const memo = memoForge(forge);
    await memo.getIssue(1);
    await memo.getIssue(1);
    expect((await memo.listComments(1)).map((c) => c.id)).toEqual([1]);
    const created = await memo.createComment(1, "status");
    await memo.updateComment(created.id, "status, edited");
    expect((await memo.listComments(1)).map((c) => [c.id, c.body])).toEqual([
      [1, "hi"],
      [2, "status, edited"],
    ]);
    expect(calls).toEqual(["getIssue 1", "listComments", "createComment", "updateComment"]);
  });

  it("asks the forge again after refresh(): people's news is never stale", async () => {
    const { forge, calls } = countingForge();
    const memo = memoForge(forge);
    await memo.listComments(1);
    memo.refresh();
    await memo.listComments(1);
    expect(calls).toEqual(["listComments", "listComments"]);
  });

  it("passes every other call to the forge itself, bound to it", async () => {
    const { forge, calls } = countingForge();
    expect(await memoForge(forge).permission("ana")).toBe("write");
    expect(calls).toEqual(["permission kept on the instance"]);
    expect(memoForge(forge).botLogin).toBe("cfa-bot[bot]");
  });
});
