// Record comments are pure functions of the records: tested without mocks.

import { describe, expect, it } from "vitest";
import { readHiddenBlock } from "../../../src/comments/hidden-block.js";
import { outboundText } from "../../../src/comments/outbound-text.js";
import { gateOf, questionOf } from "../../support/comments/record-fixture.js";

describe("record comments", () => {
  it("a gate names the reviewer, the commit and how to answer, with the artifact inline and inert", () => {
    const body = gateOf({ content: "# Plan\nping @bob" });
    expect(body).toContain("@ana (gate `q2`, PLAN)");
    expect(body).not.toContain("WARNING");
    expect(body).toContain("at commit `0123456`");
    expect(body).toContain("ping @\u200bbob");
    expect(readHiddenBlock(body)).toMatchObject({ kind: "gate", seq: 2, id: "q2" });
  });

  it("a gate names every reviewer and says which review requests GitHub refused, and why", () => {
    const body = gateOf({
      reviewers: ["ana", "bob"],
      unrequested: [
        {
          login: "bob",
          reason: "Reviews may only be requested from collaborators. Ask @carol.",
        },
      ],
    });
    // As posted: the Forge boundary takes the template's marks off its own mentions.
    const posted = outboundText(body);
    expect(posted).toContain("@ana, @bob (gate `q2`, PLAN)");
    expect(posted).toContain(
      "> GitHub would not request a review from @bob: Reviews may only be requested from collaborators. Ask @\u200bcarol. A review from @bob still counts if they have write access",
    );
  });

  it("a question quotes the agent's text and says how to answer", () => {
    const body = questionOf({ text: "Which DB?\nPostgres?" });
    expect(body).toContain("> Which DB?\n> Postgres?");
    expect(body).toContain("`/answer q1 <your answer>`");
    expect(readHiddenBlock(body)).toMatchObject({ kind: "question", seq: 1, id: "q1" });
  });
});
