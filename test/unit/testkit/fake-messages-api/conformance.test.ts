// The fake Messages API's request checker (test/support/fake-messages-api/conformance.ts) is
// what the demo-over-HTTP test leans on; here it is shown to catch each rule broken, so a
// clean run there means the requests kept the rules, not that the checker saw nothing.

import { describe, expect, it } from "vitest";
import { Conformance } from "../../../support/fake-messages-api/conformance.js";
import type { ApiRequest } from "../../../support/fake-messages-api/server.js";

type Block = Record<string, unknown> & { type: string };

const served: Block[] = [
  { type: "thinking", thinking: "Plan.", signature: "sig-1" },
  { type: "redacted_thinking", data: "enc-1" },
  { type: "tool_use", id: "t1", name: "write_file", input: { path: "a.ts", content: "x" } },
];

function request(body: Record<string, unknown>, raw = JSON.stringify(body)): ApiRequest {
  return { method: "POST", path: "/v1/messages", headers: {}, raw, body };
}

const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
const result = (id: string) => ({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: id, content: "ok" }],
});

/** The second request of the conversation: the opening one, `content` served, `answer` to it. */
function secondTurn(content: Block[] = served, answer: object = result("t1")) {
  return {
    system: "S",
    tools: [],
    messages: [user("go"), { role: "assistant", content }, answer],
  };
}

/** A checker that has seen the opening request and served `served` for it. */
function afterFirstTurn(): Conformance {
  const c = new Conformance();
  expect(c.check("w", request({ system: "S", tools: [], messages: [user("go")] }))).toEqual([]);
  c.recordServed("w", served);
  return c;
}

describe("the fake Messages API's request checker", () => {
  it("accepts the served turn sent back as it was, its tool_use answered once", () => {
    const c = afterFirstTurn();
    const body = secondTurn();
    expect(c.check("w", request(body))).toEqual([]);
  });

  it("catches tool input keys re-sorted on the wire", () => {
    const c = afterFirstTurn();
    const sorted = served.map((b) =>
      b.type === "tool_use" ? { ...b, input: { content: "x", path: "a.ts" } } : b,
    );
    const body = secondTurn(sorted);
    expect(c.check("w", request(body)).join()).toMatch(/differs from what was served/);
  });

  it("catches a thinking block dropped, or the latest turn left out", () => {
    const c = afterFirstTurn();
    const noRedacted = served.filter((b) => b.type !== "redacted_thinking");
    const body = secondTurn(noRedacted);
    expect(c.check("w", request(body)).join()).toMatch(/differs from what was served/);

    const d = afterFirstTurn();
    d.recordServed("w", [{ type: "text", text: "Second.", citations: null }]);
    const stale = secondTurn();
    expect(d.check("w", request(stale)).join()).toMatch(/1 served assistant blocks not sent back/);
  });

  it("catches a changed system prompt or tools within an instance, not across instances", () => {
    const c = afterFirstTurn();
    const body = { ...secondTurn(), system: "S plus memory", tools: [{ name: "x" }] };
    const found = c.check("w", request(body)).join();
    expect(found).toMatch(/system changed/);
    expect(found).toMatch(/tools changed/);
    expect(c.check("other", request({ system: "T", tools: [], messages: [user("go")] }))).toEqual(
      [],
    );
  });

  it("catches more than 4 cache_control breakpoints", () => {
    const marked = (text: string) => ({
      type: "text",
      text,
      cache_control: { type: "ephemeral" },
    });
    const body = {
      system: [marked("a"), marked("b"), marked("c")],
      tools: [],
      messages: [{ role: "user", content: [marked("d"), marked("e")] }],
    };
    expect(new Conformance().check("w", request(body)).join()).toMatch(/5 cache_control/);
  });

  it("catches a tool_use answered twice, not at all, or a result for no call", () => {
    const c = afterFirstTurn();
    const twice = secondTurn(served, {
      role: "user",
      content: [...result("t1").content, ...result("t1").content],
    });
    expect(c.check("w", request(twice)).join()).toMatch(/tool_use t1 answered 2 times/);
    const d = afterFirstTurn();
    const stray = secondTurn(served, result("t9"));
    const found = d.check("w", request(stray)).join();
    expect(found).toMatch(/tool_use t1 answered 0 times/);
    expect(found).toMatch(/tool_result for unknown t9/);
  });

  it("catches an assistant block whose bytes differ from the parsed body (re-serialised)", () => {
    const c = afterFirstTurn();
    const body = secondTurn();
    // Same JSON value, but sent pretty-printed: not the bytes the API returned.
    expect(c.check("w", request(body, JSON.stringify(body, null, 1))).join()).toMatch(
      /not in the body byte for byte/,
    );
  });
});
