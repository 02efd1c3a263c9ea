// The worker skips what the app refused (src/worker/skip-refused.ts): a hidden block naming
// a comment or review silences it for the engine (no command in it, a review that only
// comments; still listed, so the cursor moves past it) only when the worker's own live
// check also finds its author without authority. Anyone's bot can write such a block; here blocks are
// forged by another bot, by a person, for another job and for writers' commands, and none
// hides a command that counts.

import { describe, expect, it } from "vitest";
import { withHiddenBlock } from "../../src/comments/hidden-block.js";
import { commandRefusalComment } from "../../src/comments/outsider-refusal-comment.js";
import type { Comment, Forge, JobView, Permission, Review } from "../../src/ports/forge.js";
import { skipRefused } from "../../src/worker/skip-refused.js";
import { cases } from "../support/adversarial/count.js";

const JOB = 7;
const person = (login: string) => ({ login, type: "User" as const });
const bot = (login: string) => ({ login, type: "Bot" as const });
const at = (id: number, author: Comment["author"], body: string): Comment => ({
  id,
  author,
  body,
  createdAt: "2026-11-26T00:00:00Z",
  url: `https://github.com/o/r/issues/7#issuecomment-${id}`,
});
const review = (id: number, login: string): Review => ({
  id,
  author: person(login),
  state: "APPROVED",
  body: "",
  commitId: "f".repeat(40),
  submittedAt: "2026-11-26T00:00:00Z",
  comments: [],
});
const refusal = (comment: number, job = JOB) =>
  commandRefusalComment({ job, comment, login: "x", permission: "read", command: "withdraw" });

/** The Forge methods skipRefused reads, over fixed data. */
function forgeOf(comments: Comment[], reviews: Review[], permissions: Record<string, Permission>) {
  const calls: string[] = [];
  const forge = {
    botLogin: "github-actions[bot]",
    listComments: (issue: number) => (calls.push(`comments:${issue}`), Promise.resolve(comments)),
    listReviews: () => Promise.resolve(reviews),
    readJob: (): Promise<JobView> =>
      Promise.resolve({
        issue: { number: JOB } as JobView["issue"],
        comments,
        pullRequest: null,
        reviews,
        labelEvents: [],
      }),
    permission: (login: string) => Promise.resolve(permissions[login.toLowerCase()] ?? "none"),
  } as unknown as Forge;
  return { forge, calls };
}

const PLANTS = [
  {
    name: "the app's block for an outsider's command",
    hidden: true,
    by: bot("cfa-bot[bot]"),
    block: refusal(101),
    author: "mallory",
  },
  {
    name: "the workflow bot's block (Actions-only route)",
    hidden: true,
    by: bot("github-actions[bot]"),
    block: refusal(101),
    author: "mallory",
  },
  {
    name: "another bot's forged block for a writer's /withdraw",
    hidden: false,
    by: bot("evil[bot]"),
    block: refusal(101),
    author: "wes",
  },
  {
    name: "a person's forged block for an outsider's command",
    hidden: false,
    by: person("mallory"),
    block: refusal(101),
    author: "mallory",
  },
  {
    name: "a block for another job",
    hidden: false,
    by: bot("cfa-bot[bot]"),
    block: refusal(101, 8),
    author: "mallory",
  },
  {
    name: "a block for an approver listed in approvers",
    hidden: false,
    by: bot("cfa-bot[bot]"),
    block: refusal(101),
    author: "guest",
  },
  {
    name: "a block of another kind naming the comment",
    hidden: false,
    by: bot("cfa-bot[bot]"),
    block: withHiddenBlock("x", { v: 1, job: JOB, kind: "refusal", comment: 101 }),
    author: "mallory",
  },
] as const;

describe(
  cases("refusal blocks the worker trusts, and forged ones it does not", PLANTS.length, "plants"),
  () => {
    it.each(PLANTS)("$name: hidden=$hidden", async ({ hidden, by, block, author }) => {
      const command = at(101, person(author), "/withdraw now");
      const { forge } = forgeOf([command, at(102, by, block)], [], {
        wes: "write",
        mallory: "read",
        guest: "read",
      });
      const view = skipRefused(forge, JOB, { approvers: ["Guest"] });
      const listed = await view.listComments(JOB);
      const read = (await view.readJob(JOB, "cfa/7")).comments;
      // Still listed (the cursor moves past it); its command silenced only when trusted.
      expect(listed.map((c) => c.id)).toEqual([101, 102]);
      expect(listed[0]!.body === "/withdraw now").toBe(!hidden);
      expect(read[0]!.body === "/withdraw now").toBe(!hidden);
    });

    it("a review the app refused only comments in listReviews and readJob; another is kept as it is", async () => {
      const blocks = [
        at(
          102,
          bot("cfa-bot[bot]"),
          withHiddenBlock("no", { v: 1, job: JOB, kind: "review-refused", review: 501 }),
        ),
      ];
      const { forge } = forgeOf(blocks, [review(501, "mallory"), review(502, "wes")], {
        mallory: "read",
        wes: "write",
      });
      const view = skipRefused(forge, JOB, { approvers: [] });
      const states = (reviews: Review[]) => reviews.map((r) => `${r.id}:${r.state}`);
      expect(states(await view.listReviews(12))).toEqual(["501:COMMENTED", "502:APPROVED"]);
      expect(states((await view.readJob(JOB, "cfa/7")).reviews)).toEqual([
        "501:COMMENTED",
        "502:APPROVED",
      ]);
    });

    it("positive control: without the wrapper the engine sees the refused comment and would refuse it again", async () => {
      const { forge } = forgeOf(
        [at(101, person("mallory"), "/withdraw"), at(102, bot("cfa-bot[bot]"), refusal(101))],
        [],
        { mallory: "read" },
      );
      expect((await forge.listComments(JOB))[0]!.body).toBe("/withdraw");
    });
  },
);
