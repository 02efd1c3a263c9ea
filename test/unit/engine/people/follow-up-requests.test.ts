// After a job ended, what people asked of it (src/engine/people/follow-up-requests.ts,
// docs/protocol.md#jobs-and-states): the earliest `/cfa` by someone who may act starts a
// follow-up; anyone else gets one reply, never two. Read from the records and the forge alone.

import { describe, expect, it } from "vitest";
import { findFollowUp } from "../../../../src/engine/people/follow-up-requests.js";
import { BOT, memoryForge } from "../../../support/engine/memory-forge.js";
import { sessionParts } from "../../../support/engine/session-parts.js";
import { givenJob } from "../../../support/protocol/given.js";

function ended(state: "DONE" | "FAILURE") {
  const forge = memoryForge();
  forge.permissions.set("mallory", "read");
  return sessionParts({ forge, job: givenJob(state, { job: 1 }) });
}

describe("findFollowUp", () => {
  it("the earliest `/cfa` by a writer is the follow-up's request; the follow-up reads people from just after it", async () => {
    const s = ended("DONE");
    s.seen.forge.comment("ana", "thanks!");
    const asked = s.seen.forge.comment("ana", "/cfa make the greeting blue");
    const later = s.seen.forge.comment("ana", "/cfa and bold");

    const found = await findFollowUp(s);

    expect(found?.request).toMatchObject({
      kind: "comment",
      id: asked.id,
      by: "ana",
      on: "issue",
      text: "make the greeting blue",
    });
    expect(found?.cursor.comment).toBe(asked.id);
    expect(found?.cursor.comment).toBeLessThan(later.id);
    expect(s.seen.lines.at(-1)).toMatchObject({ event: "FOLLOW-UP" });
  });

  it("someone without write access is answered once, however often it is read, and nothing starts", async () => {
    const s = ended("DONE");
    s.seen.forge.comment("mallory", "/cfa delete everything");

    expect(await findFollowUp(s)).toBeNull();
    expect(await findFollowUp(s)).toBeNull();

    const replies = s.seen.forge.comments.filter((c) => c.author.login === BOT);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toContain("only people with write access");
  });

  it("a failed job starts no follow-up: the writer who asked hears why", async () => {
    const s = ended("FAILURE");
    s.seen.forge.comment("ana", "/cfa try again");

    expect(await findFollowUp(s)).toBeNull();

    const replies = s.seen.forge.comments.filter((c) => c.author.login === BOT);
    expect(replies).toHaveLength(1);
    expect(s.seen.lines.at(-1)).toMatchObject({ event: "REFUSED" });
  });
});
