// Anthropic's text editor tool (text_editor_20250728) on a workspace: its four commands, its
// result conventions (`cat -n` lines, a snippet after an edit), and the workspace boundary and
// limits the file tools keep (src/agents/fs), through runToolCall as the loop calls it.

import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runToolCall } from "../../../../src/agents/tools/run-tool-call.js";
import type { ToolContext } from "../../../../src/agents/tools/tool.js";
import { toolSpecs } from "../../../../src/agents/tools/tool-registry.js";
import { EDITOR_MAX_CHARACTERS } from "../../../../src/agents/tools/editor/editor-input.js";
import {
  buildInstructions,
  nearbyInstructions,
} from "../../../../src/agents/instructions/repo-instructions.js";
import { fakeHost } from "../../../support/agents/fake-host.js";
import { testRole, useTempWorkspace } from "../../../support/agents/turn-fixture.js";

let root: string;
useTempWorkspace((dir) => (root = dir));

const role = testRole(["str_replace_based_edit_tool"], { toolSet: "bash-editor" });
const context = (extra: Partial<ToolContext> = {}): ToolContext => ({
  role,
  host: fakeHost(),
  workspace: { root, protect: [".cfa/"], readOnly: false },
  limits: { readBytes: 200_000 },
  ...extra,
});
let id = 0;
const edit = (input: unknown, ctx = context()) =>
  runToolCall(
    { type: "tool_use", id: `e${++id}`, name: "str_replace_based_edit_tool", input },
    ctx,
  );

describe("str_replace_based_edit_tool", () => {
  it("is sent as Anthropic's tool type, with max_characters: the model brings the schema", () => {
    expect(toolSpecs(role)).toEqual([
      {
        type: "text_editor_20250728",
        name: "str_replace_based_edit_tool",
        max_characters: EDITOR_MAX_CHARACTERS,
      },
    ]);
  });

  it("views a file as `cat -n` lines, whole or a view_range (-1: to the end)", async () => {
    await writeFile(join(root, "a.txt"), "one\ntwo\nthree\n");
    const whole = await edit({ command: "view", path: "a.txt" });
    expect(whole).toEqual({
      isError: false,
      text: "Here's the result of running `cat -n` on a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n",
    });
    const range = await edit({ command: "view", path: `${root}/a.txt`, view_range: [2, -1] });
    expect(range.text).toContain("lines 2–3 of a.txt:\n     2\ttwo\n     3\tthree\n");
    const bad = await edit({ command: "view", path: "a.txt", view_range: [4, 5] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/view_range \[4, 5\].*between 1 and 3/);
  });

  it("views a folder two levels deep, hidden items and installed dependencies not listed", async () => {
    await mkdir(join(root, "src/lib/deep"), { recursive: true });
    await mkdir(join(root, "node_modules/x"), { recursive: true });
    await writeFile(join(root, "src/lib/deep/z.js"), "");
    await writeFile(join(root, "src/index.js"), "");
    await writeFile(join(root, ".env"), "SECRET=1");
    const view = await edit({ command: "view", path: "." });
    expect(view.text.split("\n")).toEqual([
      "Here are the files and folders up to 2 levels deep in the workspace root, hidden items left out:",
      "node_modules/",
      "src/",
      "src/index.js",
      "src/lib/",
      "",
    ]);
  });

  it("cuts a long view at max_characters, at a line, and says how to see the rest", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${"x".repeat(20)}`);
    await writeFile(join(root, "long.txt"), lines.join("\n"));
    const view = await edit({ command: "view", path: "long.txt" });
    expect(view.text.length).toBeLessThan(EDITOR_MAX_CHARACTERS + 400);
    expect(view.text).toMatch(
      /\[cut at 50,000 characters, after line \d+: view the rest with a view_range/,
    );
  });

  it("creates (or overwrites) a file, folders included", async () => {
    expect((await edit({ command: "create", path: "src/new.js", file_text: "x\n" })).text).toBe(
      "File created successfully at: src/new.js (2 bytes).",
    );
    expect((await edit({ command: "create", path: "src/new.js", file_text: "y\n" })).text).toBe(
      "File overwritten: src/new.js (2 bytes).",
    );
    expect(await readFile(join(root, "src/new.js"), "utf8")).toBe("y\n");
  });

  it("replaces one exact unique text and shows the lines around it; refuses none or several", async () => {
    await writeFile(join(root, "f.js"), "a\nb\nc\nb2\n");
    const done = await edit({
      command: "str_replace",
      path: "f.js",
      old_str: "c\n",
      new_str: "C\n",
    });
    expect(done.text).toBe(
      "The file f.js has been edited. Here's the result of running `cat -n` on a snippet of f.js:\n     1\ta\n     2\tb\n     3\tC\n     4\tb2\nReview the changes and make sure they are as expected. Edit the file again if necessary.\n",
    );
    const none = await edit({ command: "str_replace", path: "f.js", old_str: "zzz", new_str: "" });
    expect(none).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /^No replacement was performed: old_str did not appear verbatim in f.js/,
      ),
    });
    const many = await edit({ command: "str_replace", path: "f.js", old_str: "b", new_str: "" });
    expect(many).toMatchObject({
      isError: true,
      text: expect.stringMatching(/occurs more than once in f.js \(.*2 times/),
    });
    expect(await readFile(join(root, "f.js"), "utf8")).toBe("a\nb\nC\nb2\n");
  });

  it("inserts after a line (0: before the first), with insert_text or the older new_str", async () => {
    await writeFile(join(root, "g.txt"), "a\nb\n");
    await edit({ command: "insert", path: "g.txt", insert_line: 1, insert_text: "between\n" });
    await edit({ command: "insert", path: "g.txt", insert_line: 0, new_str: "first" });
    expect(await readFile(join(root, "g.txt"), "utf8")).toBe("first\na\nbetween\nb\n");
    const past = await edit({ command: "insert", path: "g.txt", insert_line: 9, insert_text: "x" });
    expect(past).toMatchObject({ isError: true, text: expect.stringContaining("has 4 lines") });
  });

  it("keeps the workspace boundary: .git, the engine's records, paths and links outside", async () => {
    await mkdir(join(root, ".git"));
    await mkdir(join(root, ".cfa/jobs/1"), { recursive: true });
    await symlink("/etc", join(root, "etc-link"));
    const refused = [
      await edit({ command: "view", path: ".git/config" }),
      await edit({ command: "create", path: ".cfa/jobs/1/state.json", file_text: "{}" }),
      await edit({ command: "create", path: "../outside.txt", file_text: "x" }),
      await edit({ command: "view", path: "/etc/passwd" }),
      await edit({ command: "view", path: "etc-link/passwd" }),
    ];
    for (const result of refused) expect(result.isError, result.text).toBe(true);
    expect(refused[3]!.text).toMatch(/outside your workspace/);
    // The records stay readable: agents read their artifacts under .cfa/.
    await writeFile(join(root, ".cfa/jobs/1/PLAN.md"), "# Plan\n");
    expect((await edit({ command: "view", path: ".cfa/jobs/1/PLAN.md" })).isError).toBe(false);
  });

  it("only views in a read-only workspace (the verifier's, the proxy's)", async () => {
    const ctx = context({ workspace: { root, protect: [".cfa/"], readOnly: true } });
    const refused = await edit({ command: "create", path: "x.txt", file_text: "x" }, ctx);
    expect(refused).toMatchObject({ isError: true, text: expect.stringContaining("read-only") });
  });

  it("has no undo_edit in this version: an unknown command is an error the model can act on", async () => {
    const result = await edit({ command: "undo_edit", path: "a.txt" });
    expect(result).toMatchObject({ isError: true, text: expect.stringContaining("no undo_edit") });
  });

  it("gives a sub-folder's AGENTS.md once, when the agent first works there", async () => {
    await mkdir(join(root, "pkg/api"), { recursive: true });
    await writeFile(join(root, "pkg/api/x.py"), "x = 1\n");
    const instructions = buildInstructions(
      [],
      [{ path: "pkg/AGENTS.md", text: "Use tabs in pkg." }],
      { branch: "main" },
    );
    const given = new Set<string>();
    const ctx = context({
      nearbyInstructions: (path, kind) => nearbyInstructions(instructions, given, path, kind),
    });
    const first = await edit({ command: "view", path: "pkg/api/x.py" }, ctx);
    expect(first.text).toContain(
      '<untrusted-data source="pkg/AGENTS.md">\nUse tabs in pkg.\n</untrusted-data>',
    );
    const second = await edit({ command: "view", path: "pkg/api/x.py" }, ctx);
    expect(second.text).not.toContain("untrusted-data");
  });
});
