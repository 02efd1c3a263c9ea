// Model-supplied patterns against input built to make a backtracking engine explode (`(a+)+$` on a
// 41-character line and `*a*a*…*b` on a long name once hung a wake past 8 s; 6 of 19 cases). Each
// case goes through the real search_files tool over a real workspace, as an agent's call would, and
// must come back — with matches, "No matches." or a tool error the agent can read — never hang
// (vitest's timeout is the only clock here; a backtracking engine would blow through it by orders
// of magnitude).

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchFiles } from "../../src/agents/fs/search-files.js";
import { runToolCall } from "../../src/agents/tools/run-tool-call.js";
import type { ToolContext } from "../../src/agents/tools/tool.js";
import { fakeHost } from "../support/agents/fake-host.js";
import { tempWorkspace, testRole } from "../support/agents/turn-fixture.js";
import { cases } from "../support/adversarial/count.js";

let root: string;
let cleanup: () => Promise<void>;
const LONG_NAME = `${"a".repeat(200)}.txt`;

beforeAll(async () => {
  ({ root, cleanup } = await tempWorkspace());
  const lines = [
    `${"a".repeat(41)}!`, // the line
    `${"a".repeat(5000)}!`,
    "x".repeat(20_000),
    `${"ab".repeat(5000)}c`,
    `${"1".repeat(5000)}x`,
    `${"aB ".repeat(3000)}!`,
    "needle in a haystack",
  ];
  await writeFile(join(root, "evil.txt"), `${lines.join("\n")}\n`);
  await writeFile(join(root, LONG_NAME), "a long name\n");
  const deep = join(root, ...Array.from({ length: 30 }, () => "a"));
  await mkdir(deep, { recursive: true });
  await writeFile(join(deep, "ab"), "deep\n");
});
afterAll(async () => {
  await cleanup();
});

function ctx(): ToolContext {
  return {
    role: testRole(["search_files"]),
    host: fakeHost(),
    workspace: { root, protect: [".cfa/"], readOnly: false },
    limits: { readBytes: 1024 },
  };
}

let id = 0;
const search = (input: Record<string, unknown>) =>
  runToolCall({ type: "tool_use", id: `r${++id}`, name: "search_files", input }, ctx());

type Outcome = "result" | "error";
const STARS = `${"*a".repeat(40)}*b`;

const REGEXES: readonly [string, string, Outcome][] = [
  ["nested plus, the issue's case", "(a+)+$", "result"],
  ["alternation of equals", "(a|a)+$", "result"],
  ["overlapping alternation", "(a|aa)+$", "result"],
  ["nested star", "(a*)*$", "result"],
  ["nested plus then a missing b", "(a+)*b", "result"],
  ["anchored nested plus", "^(a+)+$", "result"],
  ["repeated dot-star", "(.*a){20}", "result"],
  ["two overlapping runs", "(x+x+)+y", "result"],
  ["letters then end", "([a-zA-Z]+)*$", "result"],
  ["words and optional spaces", "(\\w+\\s?)+$", "result"],
  [
    "email-like",
    "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
    "result",
  ],
  ["optional run then run", `${"a?".repeat(30)}${"a".repeat(30)}`, "result"],
  ["digits then a dot", "(\\d+)*\\.", "result"],
  ["case-folded nested plus", "(A+)+B", "result"],
  ["a backreference", "(a+)+\\1", "error"],
  ["a lookahead", "(?=(a+))a*b\\1", "error"],
  ["a lookbehind", "(?<=a+)b", "error"],
  ["an over-large repeat", "(.*){1,32000}[bc]", "error"],
  ["nested counted repeats", "((a{100}){100}){100}", "error"],
];

const GLOBS: readonly [string, string, Outcome][] = [
  ["stars and a's, the issue's case", STARS, "result"],
  ["question marks and stars", `${"?*".repeat(40)}b`, "result"],
  ["globstars", `${"**/".repeat(30)}*b`, "result"],
  ["braces of overlapping choices", `${"{a,aa}".repeat(20)}*b`, "result"],
  ["classes and stars", `${"[a-a]*".repeat(40)}b`, "result"],
  ["a malformed class", "[z-a]*", "error"],
];

describe(cases("ReDoS: search_files patterns finish", REGEXES.length + GLOBS.length), () => {
  it.each(REGEXES)("regex: %s", async (_name, pattern, outcome) => {
    const result = await search({ pattern, regex: true, ignore_case: pattern.includes("A+") });
    expect(result.isError).toBe(outcome === "error");
    if (outcome === "error") expect(result.text).toMatch(/^cfa\/fs: .*(not supported|RE2)/);
    else expect(result.text).toMatch(/evil\.txt:\d+: |No matches\./);
  });

  it.each(GLOBS)("glob: %s", async (_name, glob, outcome) => {
    const result = await search({ pattern: "a", glob });
    expect(result.isError).toBe(outcome === "error");
    if (outcome === "error") expect(result.text).toMatch(/^cfa\/fs: .*not a valid glob/);
  });

  it("a glob that should match the long name still does, in linear time", async () => {
    const result = await search({ pattern: "long name", glob: "*a*a*a*.txt" });
    expect(result.text).toBe(`${LONG_NAME}:1: a long name`);
  });

  it("a search past its deadline is a tool error naming how far it got", async () => {
    let clock = 0;
    const searching = searchFiles(root, "a", {
      deadlineMs: 1000,
      // Each look at the clock is a second later: the deadline passes mid-search.
      now: () => (clock += 600),
    });
    await expect(searching).rejects.toMatchObject({
      name: "FileToolError",
      code: "timed-out",
      message: expect.stringMatching(/stopped after 1 s \(\d+ files searched\); narrow it/),
    });
  });
});
