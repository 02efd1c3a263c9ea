// Oversized tool inputs, an agent bloating its job's records: a 10 MB question was stored three to
// four times over (the tool call in the transcript, the message in the bus, the escalation in
// state.json, the comment in the outbox) and read back by every later wake. Every text and list an
// agent hands a protocol tool is bounded at the tool's input schema
// (src/agents/tools/text-limits.ts, the limits and their reasons): one past the bound is refused
// with one line naming the limit and the length sent, so the agent can say it shorter, and the host
// — which would file it — is never called; one at the bound goes through. An outcome record a lead
// writes itself is held to the same reason bound. Positive control: the same oversized inputs
// handed to the tools past their schemas reach the host whole.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolCall } from "../../src/agents/tools/run-tool-call.js";
import { TEXT_LIMITS } from "../../src/agents/tools/text-limits.js";
import type { ToolContext } from "../../src/agents/tools/tool.js";
import { TOOLS } from "../../src/agents/tools/tool-registry.js";
import type { ToolName } from "../../src/agents/tools/tool-names.js";
import { parseOutcomeRecord } from "../../src/protocol/outcome-record.js";
import { fakeHost } from "../support/agents/fake-host.js";
import { testRole } from "../support/agents/turn-fixture.js";
import { cases } from "../support/adversarial/count.js";

const n = (count: number) => count.toLocaleString("en-US");
const text = (length: number) => "x".repeat(length);
const list = (length: number, item: string) => Array.from({ length }, () => item);

interface Bound {
  tool: ToolName;
  field: string;
  limit: number;
  /** The tool's input with the bounded field at `length` (characters or entries). */
  input(length: number): Record<string, unknown>;
  /** What the refusal says. */
  refused(limit: number): string;
}

const chars = (what: string) => (limit: number) =>
  `${what} may be at most ${n(limit)} characters; this one has ${n(limit + 1)}`;
const entries = (what: string) => (limit: number) =>
  `at most ${n(limit)} ${what}; this call has ${n(limit + 1)}`;

/** A text field of `tool`'s input bounded in characters; `others` are the input's other fields. */
const textBound = (
  tool: ToolName,
  field: string,
  limit: number,
  what: string,
  others: Record<string, unknown> = {},
): Bound => ({
  tool,
  field,
  limit,
  input: (l) => ({ ...others, [field]: text(l) }),
  refused: chars(what),
});

const BOUNDS: Bound[] = [
  textBound("ask_question", "text", TEXT_LIMITS.question, "a question", { kind: "question" }),
  textBound("escalate", "question", TEXT_LIMITS.question, "a question"),
  textBound("answer", "text", TEXT_LIMITS.answer, "an answer"),
  textBound("dispatch", "brief", TEXT_LIMITS.brief, "a brief", { id: "t1", files: [] }),
  {
    tool: "dispatch",
    field: "files",
    limit: TEXT_LIMITS.dispatchFiles,
    input: (l) => ({ id: "t1", brief: "do it", files: list(l, "a.txt") }),
    refused: entries("files"),
  },
  textBound("send", "text", TEXT_LIMITS.message, "a message", { to: "parent" }),
  textBound("reply", "text", TEXT_LIMITS.message, "a reply"),
  {
    tool: "verdict",
    field: "issues",
    limit: TEXT_LIMITS.verdictIssues,
    input: (l) => ({ verdict: "fail", issues: list(l, "broken"), notes: "" }),
    refused: entries("issues"),
  },
  {
    tool: "verdict",
    field: "issues.0",
    limit: TEXT_LIMITS.verdictIssue,
    input: (l) => ({ verdict: "fail", issues: [text(l)], notes: "" }),
    refused: chars("an issue"),
  },
  textBound("verdict", "notes", TEXT_LIMITS.verdictNotes, "notes", { verdict: "pass", issues: [] }),
  textBound("finish", "reason", TEXT_LIMITS.reason, "a reason", { outcome: "APPROVED_INTENT" }),
  textBound("withdraw", "reason", TEXT_LIMITS.reason, "a reason"),
  {
    tool: "run_command",
    field: "argv",
    limit: TEXT_LIMITS.arguments,
    input: (l) => ({ argv: ["echo", ...list(l - 1, "a")] }),
    refused: entries("arguments"),
  },
  {
    tool: "run_command",
    field: "argv.1",
    limit: TEXT_LIMITS.argument,
    input: (l) => ({ argv: ["echo", text(l)] }),
    refused: () =>
      `an argument may be at most ${n(TEXT_LIMITS.argument)} characters (Linux's MAX_ARG_STRLEN)`,
  },
];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cfa-oversized-"));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

function context() {
  const host = fakeHost();
  const ctx: ToolContext = {
    role: testRole(Object.keys(TOOLS), { commands: ["echo"] }),
    host,
    workspace: { root, protect: [".cfa/"], readOnly: false },
    limits: { readBytes: 1024 },
  };
  return { host, ctx };
}

let id = 0;
const call = (ctx: ToolContext, name: string, input: unknown) =>
  runToolCall({ type: "tool_use", id: `o${++id}`, name, input }, ctx);

describe(cases("inputs one past their bound, refused at the tool's schema", BOUNDS.length), () => {
  it.each(BOUNDS)("$tool $field", async (bound) => {
    const { host, ctx } = context();
    const result = await call(ctx, bound.tool, bound.input(bound.limit + 1));
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`cfa/tools: invalid input for ${bound.tool}: ${bound.field}: `);
    expect(result.text).toContain(bound.refused(bound.limit));
    // One line, short: the refusal does not echo the input back into the transcript.
    expect(result.text).not.toContain("\n");
    expect(result.text.length).toBeLessThan(400);
    expect(host.calls).toEqual([]);
  });
});

describe(cases("inputs at their bound, taken", BOUNDS.length), () => {
  it.each(BOUNDS)("$tool $field", async (bound) => {
    const { host, ctx } = context();
    const result = await call(ctx, bound.tool, bound.input(bound.limit));
    expect(result.text).not.toContain("invalid input");
    expect(host.calls).toHaveLength(1);
  });
});

describe(cases("an outcome record a lead writes itself", 2), () => {
  it("a reason one past the bound is a violation naming it", () => {
    const parsed = parseOutcomeRecord(
      JSON.stringify({ outcome: "APPROVED_INTENT", reason: text(TEXT_LIMITS.reason + 1) }),
      "INTENT",
    );
    expect(parsed).toMatchObject({ ok: false, violation: expect.stringContaining("reason: ") });
  });
  it("a reason at the bound is taken", () => {
    const parsed = parseOutcomeRecord(
      JSON.stringify({ outcome: "APPROVED_INTENT", reason: text(TEXT_LIMITS.reason) }),
      "INTENT",
    );
    expect(parsed.ok).toBe(true);
  });
});

describe(
  cases("positive controls: the 10 MB inputs past the schema reach the host whole", 2),
  () => {
    it("ask_question: the host is handed a 10 MB question to file", async () => {
      const { host, ctx } = context();
      await TOOLS.ask_question.run({ kind: "question", text: text(10_000_000) } as never, ctx);
      expect(host.calls).toHaveLength(1);
      expect(JSON.stringify(host.calls[0]!.args).length).toBeGreaterThan(10_000_000);
    });
    it("dispatch: the host is handed a 10 MB brief to store", async () => {
      const { host, ctx } = context();
      await TOOLS.dispatch.run({ id: "t1", brief: text(10_000_000), files: [] } as never, ctx);
      expect(host.calls).toHaveLength(1);
      expect(JSON.stringify(host.calls[0]!.args).length).toBeGreaterThan(10_000_000);
    });
  },
);
