import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatCommandResult } from "../../../../src/agents/tools/format-command-result.js";
import { runToolCall } from "../../../../src/agents/tools/run-tool-call.js";
import type { ToolContext } from "../../../../src/agents/tools/tool.js";
import { TOOL_NAMES as ALL_TOOL_NAMES } from "../../../../src/agents/tools/tool-names.js";
import type { CustomToolSpec } from "../../../../src/ports/model.js";
import { TOOLS, toolSpecs as specsOf } from "../../../../src/agents/tools/tool-registry.js";
import type { RoleDefinition, TurnHost } from "../../../../src/agents/turn-contract.js";
import { fakeHost, type FakeHost } from "../../../support/agents/fake-host.js";
import { useTempWorkspace, testRole } from "../../../support/agents/turn-fixture.js";

let root: string;
useTempWorkspace((dir) => (root = dir));

function context(role: RoleDefinition, host: TurnHost = fakeHost(), readBytes = 1024): ToolContext {
  return {
    role,
    host,
    workspace: { root, protect: [".cfa/"], readOnly: false },
    limits: { readBytes },
  };
}

// The tools of ours, whose specs carry a description and a schema (the bash and editor tools
// are sent as Anthropic's types: test/unit/agents/tools/client-tools.test.ts).
const TOOL_NAMES = ALL_TOOL_NAMES.filter(
  (n) => n !== "bash" && n !== "str_replace_based_edit_tool",
);
const toolSpecs = (role: RoleDefinition) => specsOf(role) as CustomToolSpec[];

let id = 0;
const run = (ctx: ToolContext, name: string, input: unknown) =>
  runToolCall({ type: "tool_use", id: `t${++id}`, name, input }, ctx);

describe("toolSpecs", () => {
  it("gives each spec its own input schema: one changed leaves the next turn's as converted (converted once)", () => {
    const role = testRole([...TOOL_NAMES]);
    const first = toolSpecs(role);
    const pristine = JSON.stringify(first);
    for (const spec of first) spec.input_schema.planted = { type: "string" };
    expect(JSON.stringify(toolSpecs(role))).toBe(pristine);
  });
  it("gives every tool an object JSON Schema without a $schema key, and a description", () => {
    const specs = toolSpecs(testRole([...TOOL_NAMES]));
    expect(specs.map((spec) => spec.name)).toEqual([...TOOL_NAMES]);
    for (const spec of specs) {
      expect(spec.input_schema.type).toBe("object");
      expect(spec.input_schema).not.toHaveProperty("$schema");
      expect(spec.input_schema.additionalProperties).toBe(false);
      expect(spec.description.length).toBeGreaterThan(40);
    }
  });

  it("leaves inputs with defaults optional, since the model fills the input side", () => {
    const [list] = toolSpecs(testRole(["list_files"]));
    expect(list?.input_schema.required).toBeUndefined();
  });

  it("tells the model which programs the role may run", () => {
    const [spec] = toolSpecs(testRole(["run_command"], { commands: ["git", "npm"] }));
    expect(spec?.description).toContain("Allowed programs: git, npm.");
    expect(spec?.description).toContain("no network");
  });

  it("says when the turn ends for the turn-ending tools", () => {
    expect(TOOLS.ask_question.description).toContain(
      "Your turn ends; the answer arrives as your next message",
    );
    expect(TOOLS.ask_question.description).toContain("alone");
    expect(TOOLS.finish.description).toContain("alone");
  });

  it("is stable across calls (the tools are part of the cached prefix)", () => {
    const role = testRole([...TOOL_NAMES]);
    expect(JSON.stringify(toolSpecs(role))).toBe(JSON.stringify(toolSpecs(role)));
  });
});

describe("file tools", () => {
  it("read_file says when it cut a file at the read limit", async () => {
    await writeFile(join(root, "big.txt"), "x".repeat(3000));
    const result = await run(context(testRole(["read_file"]), fakeHost(), 1000), "read_file", {
      path: "big.txt",
    });
    expect(result.isError).toBe(false);
    expect(result.text.startsWith("x".repeat(1000))).toBe(true);
    expect(result.text).toContain("[truncated: the first 1000 of 3000 bytes are shown");
  });

  it("read_file does not dump binary files or pretend an empty file has content", async () => {
    await writeFile(join(root, "bin"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    await writeFile(join(root, "empty"), "");
    const ctx = context(testRole(["read_file"]));
    expect((await run(ctx, "read_file", { path: "bin" })).text).toBe(
      "bin is a binary file (4 bytes); its content is not shown.",
    );
    expect((await run(ctx, "read_file", { path: "empty" })).text).toBe("empty is empty.");
  });

  it("reports a missing file and an ambiguous edit as errors the model can act on", async () => {
    await writeFile(join(root, "a.txt"), "same same");
    const ctx = context(testRole(["read_file", "edit_file"]));
    const missing = await run(ctx, "read_file", { path: "nope.txt" });
    expect(missing).toEqual({
      text: expect.stringContaining("no such file") as string,
      isError: true,
    });
    const ambiguous = await run(ctx, "edit_file", {
      path: "a.txt",
      old_text: "same",
      new_text: "x",
    });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain("occurs 2 times");
  });

  it("list_files marks folders, and never shows .git", async () => {
    await mkdir(join(root, ".git"));
    await mkdir(join(root, "src"));
    await writeFile(join(root, "src", "a.ts"), "");
    const ctx = context(testRole(["list_files"]));
    expect((await run(ctx, "list_files", {})).text).toBe("src/");
    expect((await run(ctx, "list_files", { path: "src" })).text).toBe("src/a.ts");
  });

  it("search_files finds by regex and glob, and says when nothing matched", async () => {
    await writeFile(join(root, "a.ts"), "const x = 1;\nlet y = 2;\n");
    await writeFile(join(root, "b.md"), "const z\n");
    const ctx = context(testRole(["search_files"]));
    expect(
      (await run(ctx, "search_files", { pattern: "^(const|let) [xy]", regex: true, glob: "*.ts" }))
        .text,
    ).toBe("a.ts:1: const x = 1;\na.ts:2: let y = 2;");
    expect((await run(ctx, "search_files", { pattern: "missing" })).text).toBe("No matches.");
    const bad = await run(ctx, "search_files", { pattern: "(", regex: true });
    expect(bad.isError).toBe(true);
  });
});

describe("run_command", () => {
  it("runs an allowed command through the host and formats its result", async () => {
    const host = fakeHost({}, { exitCode: 1, stdout: "M a.txt\n", stderr: "warning\n" });
    const result = await run(context(testRole(["run_command"]), host), "run_command", {
      argv: ["git", "status"],
    });
    expect(host.calls).toEqual([{ method: "runCommand", args: [["git", "status"]] }]);
    expect(result).toEqual({
      text: "exit code: 1\nstdout:\nM a.txt\nstderr:\nwarning",
      isError: false,
    });
  });

  it("refuses a program outside the role's commands before the host sees it", async () => {
    const host = fakeHost();
    const result = await run(
      context(testRole(["run_command"], { commands: ["ls"] }), host),
      "run_command",
      {
        argv: ["curl", "https://example.com"],
      },
    );
    expect(result.isError).toBe(true);
    expect(result.text).toContain('"curl" is not an allowed command');
    expect(result.text).toContain("ls");
    expect(host.calls).toEqual([]);
  });

  it("reports a timeout as an error, and truncation and signals plainly", () => {
    const base = {
      exitCode: null,
      signal: "SIGKILL",
      stdout: "",
      stderr: "",
      timedOut: false,
      truncated: false,
      durationMs: 5,
    };
    expect(formatCommandResult({ ...base, timedOut: true })).toContain("timed out");
    expect(formatCommandResult(base)).toBe(
      "killed by signal SIGKILL\nstdout: (empty)\nstderr: (empty)",
    );
    expect(
      formatCommandResult({ ...base, exitCode: 0, signal: null, stdout: "x", truncated: true }),
    ).toContain("[output truncated");
  });

  it("turns a host that throws into an error result", async () => {
    const host: FakeHost = {
      ...fakeHost(),
      runCommand: () => Promise.reject(new Error("cfa/sandbox: bubblewrap (bwrap) is required")),
    };
    const result = await run(context(testRole(["run_command"]), host), "run_command", {
      argv: ["ls"],
    });
    expect(result).toEqual({ text: "cfa/sandbox: bubblewrap (bwrap) is required", isError: true });
  });
});

describe("protocol tools reach the host", () => {
  const all = testRole([...TOOL_NAMES]);

  it.each<[string, unknown, keyof TurnHost, unknown[]]>([
    [
      "dispatch",
      { id: "t1", brief: "Write the parser." },
      "dispatch",
      [{ id: "t1", brief: "Write the parser.", files: [] }],
    ],
    ["send", { to: "t1", text: "Also tests." }, "send", [{ task: "t1" }, "Also tests."]],
    ["send", { to: "parent", text: "Done." }, "send", [{ parent: true }, "Done."]],
    ["reply", { text: "Done." }, "send", [{ parent: true }, "Done."]],
    ["close", { task: "t1" }, "close", ["t1"]],
    ["verdict", { verdict: "pass" }, "verdict", [{ verdict: "pass", issues: [], notes: "" }]],
    ["answer", { text: "Yes." }, "proxyAnswer", ["Yes."]],
    ["escalate", { question: "Postgres or SQLite?" }, "proxyEscalate", ["Postgres or SQLite?"]],
    ["withdraw", { reason: "No longer needed." }, "proxyWithdraw", ["No longer needed."]],
  ])("%s %j → host.%s", async (name, input, method, args) => {
    const host = fakeHost();
    const result = await run(context(all, host), name, input);
    // The verifier's and the proxy's single decision ends their turn, like finish.
    const ends = ["verdict", "answer", "escalate", "withdraw"].includes(name);
    expect(result).toEqual({
      text: `${method} done`,
      isError: false,
      ...(ends ? { end: { kind: "finished" } } : {}),
    });
    expect(host.calls).toEqual([{ method, args }]);
  });

  it.each<[string, unknown, RegExp]>([
    ["dispatch", { id: "../escape", brief: "x" }, /id: must be 1-40 lower-case/],
    ["dispatch", { id: "t1", brief: "  " }, /brief: /],
    ["close", { task: "T 1" }, /task: /],
    ["verdict", { verdict: "fail", issues: [] }, /issues: a fail verdict needs at least one issue/],
    ["ask_question", { kind: "gate", text: "Approve?" }, /artifact: a gate needs the artifact/],
    ["ask_question", { kind: "poll", text: "?" }, /kind: /],
    ["finish", { outcome: "APPROVED_INTENT", reason: "" }, /reason: /],
    ["send", { to: "t1" }, /text: /],
    ["send", { to: "../t1", text: "x" }, /to: must be "parent" or the id of a task/],
    ["dispatch", { id: "parent", brief: "x" }, /id: "parent" is reserved/],
  ])("%s refuses %j naming the field", async (name, input, expected) => {
    const host = fakeHost();
    const result = await run(context(all, host), name, input);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(expected);
    expect(host.calls).toEqual([]);
  });

  it("passes a host refusal through as an error result", async () => {
    const host = fakeHost({
      dispatch: { ok: false, error: "cfa/engine: fan-out cap 3 reached; close a task first" },
    });
    expect(await run(context(all, host), "dispatch", { id: "t4", brief: "x" })).toEqual({
      text: "cfa/engine: fan-out cap 3 reached; close a task first",
      isError: true,
    });
  });

  it("marks ask_question and finish as ending the turn only when the host accepts them", async () => {
    const question = { kind: "gate", text: "Approve?", artifact: "INTENT.md" };
    expect((await run(context(all), "ask_question", question)).end).toEqual({
      kind: "asked",
      question,
    });
    expect((await run(context(all), "finish", { outcome: "WITHDRAW", reason: "r" })).end).toEqual({
      kind: "finished",
    });
    const refused = await run(
      context(all, fakeHost({ ask: { ok: false, error: "no" } })),
      "ask_question",
      question,
    );
    expect(refused.end).toBeUndefined();
  });
});
