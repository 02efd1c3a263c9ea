import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROLES } from "../../../../src/config/roles.js";
import {
  ROLE_NAMES,
  RoleError,
  loadRole,
  parseRole,
  withOverrides,
} from "../../../../src/agents/roles/index.js";
import { TOOL_NAMES } from "../../../../src/agents/tools/tool-names.js";
import { toolSpecs } from "../../../../src/agents/tools/tool-registry.js";
import { sharedToolCount } from "../../../../src/agents/roles/shared-tools.js";
import { workspaceNote } from "../../../../src/agents/roles/workspace-note.js";

describe("loadRole", () => {
  it.each(ROLE_NAMES)("loads the shipped %s role", (name) => {
    const role = loadRole(name);
    expect(role.name).toBe(name);
    expect(role.prompt.length).toBeGreaterThan(100);
    expect(role.prompt.startsWith("---")).toBe(false);
    expect(role.tools.length).toBeGreaterThan(0);
    for (const tool of role.tools) expect(TOOL_NAMES).toContain(tool);
    expect(toolSpecs(role).map((spec) => spec.name)).toEqual(role.tools);
  });

  it("gives each role the surface its job needs, and no more", () => {
    expect(loadRole("intent-lead").tools).toEqual(
      expect.arrayContaining(["ask_question", "finish"]),
    );
    expect(loadRole("worker").tools).toContain("reply");
    expect(loadRole("worker").tools).not.toContain("finish");
    expect(loadRole("verifier").tools).toContain("verdict");
    expect(loadRole("verifier").tools).not.toContain("write_file");
    expect(loadRole("proxy").tools).toEqual(
      expect.arrayContaining(["answer", "escalate", "withdraw"]),
    );
    expect(loadRole("proxy").tools).not.toContain("write_file");
  });

  it("names the same roles as the configuration", () => {
    expect([...ROLE_NAMES].sort()).toEqual([...ROLES].sort());
  });

  describe("with a role folder of its own", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "cfa-roles-"));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("refuses an unknown tool in the front matter, naming the file and the tool", async () => {
      const file = join(dir, "worker.md");
      await writeFile(
        file,
        "---\nrole: worker\ntier: capable\ntools: [read_file, delete_everything]\ncommands: []\nnetwork: false\n---\n\nPrompt.\n",
      );
      expect(() => loadRole("worker", { dir })).toThrow(RoleError);
      expect(() => loadRole("worker", { dir })).toThrow(file);
      expect(() => loadRole("worker", { dir })).toThrow(
        /tools\.1: unknown tool "delete_everything"/,
      );
    });

    it("refuses a role file whose front matter names another role", async () => {
      await writeFile(
        join(dir, "worker.md"),
        "---\nrole: proxy\ntier: capable\ntools: [read_file]\n---\nPrompt.\n",
      );
      expect(() => loadRole("worker", { dir })).toThrow(/front matter says role "proxy"/);
    });

    it("parses a role file again once its text changed, and gives each caller its own copy (parsed once while unchanged)", async () => {
      const file = join(dir, "worker.md");
      const text = (tools: string) =>
        `---\nrole: worker\ntier: capable\ntools: [${tools}]\ncommands: []\nnetwork: false\n---\n\nPrompt.\n`;
      await writeFile(file, text("read_file"));
      const first = loadRole("worker", { dir });
      first.tools.push("write_file");
      first.commands.push("rm -rf /");
      const second = loadRole("worker", { dir });
      expect(second.tools).toEqual(["read_file"]);
      expect(second.commands).toEqual([]);
      await writeFile(file, text("read_file, list_files"));
      expect(loadRole("worker", { dir }).tools).toEqual(["read_file", "list_files"]);
    });

    it("refuses a missing file with the path", () => {
      expect(() => loadRole("verifier", { dir })).toThrow(join(dir, "verifier.md"));
    });
  });
});

describe("parseRole", () => {
  const file = "roles/x.md";
  const head = (front: string) => `---\n${front}\n---\n\nThe prompt.\n`;

  it("reads front matter and prompt, with defaults for commands and network", () => {
    expect(parseRole(head("role: proxy\ntier: fast\ntools: [read_file]"), file)).toEqual({
      name: "proxy",
      tier: "fast",
      toolSet: "classic",
      tools: ["read_file"],
      commands: [],
      network: false,
      prompt: "The prompt.",
    });
  });

  it.each([
    ["no front matter", "Just a prompt.", /no YAML front matter/],
    ["bad YAML", head("role: [worker"), /not valid YAML/],
    [
      "a misspelt key",
      head("role: worker\ntier: capable\ntool: [read_file]"),
      /tools: .*Unrecognized key: "tool"/,
    ],
    [
      "a duplicated tool",
      head("role: worker\ntier: capable\ntools: [read_file, read_file]"),
      /tools\.1: tool "read_file" is listed twice/,
    ],
    [
      "a command with a path",
      head("role: worker\ntier: capable\ntools: []\ncommands: [/bin/sh]"),
      /commands\.0: must be a bare program name/,
    ],
    ["an unknown tier", head("role: worker\ntier: genius\ntools: []"), /tier: /],
    ["an unknown role", head("role: admin\ntier: capable\ntools: []"), /role: /],
    ["no prompt", "---\nrole: worker\ntier: capable\ntools: []\n---\n\n", /no system prompt/],
  ])("refuses %s, naming the file", (_name, text, expected) => {
    expect(() => parseRole(text, file)).toThrow(expected);
    expect(() => parseRole(text, file)).toThrow(/^cfa\/roles: roles\/x\.md: /);
  });
});

describe("withOverrides", () => {
  it("replaces commands and network and leaves tools and prompt", () => {
    const role = loadRole("worker");
    const changed = withOverrides(role, { commands: ["git", "make"], network: true });
    expect(changed).toEqual({ ...role, commands: ["git", "make"], network: true });
    expect(role.network).toBe(false);
    expect(withOverrides(role, {})).toEqual(role);
  });

  it("refuses a command that is not a bare program name", () => {
    expect(() => withOverrides(loadRole("worker"), { commands: ["../bin/evil"] })).toThrow(
      /overrides for worker: invalid: commands\.0/,
    );
  });
});

describe("the roles' tools in the bash-editor set", () => {
  const roles = ROLE_NAMES.map((name) => loadRole(name, { toolSet: "bash-editor" }));

  it("opens every role with the editor, those that run commands with bash, then the protocol's, in one order", () => {
    const order = TOOL_NAMES as readonly string[];
    for (const role of roles) {
      expect(role.toolSet).toBe("bash-editor");
      expect(role.tools[0], role.name).toBe("str_replace_based_edit_tool");
      expect(
        role.tools.map((t) => order.indexOf(t)),
        role.name,
      ).toEqual([...role.tools.map((t) => order.indexOf(t))].sort((a, b) => a - b));
      expect(role.tools, role.name).not.toContain("run_command");
      expect(role.tools, role.name).not.toContain("write_file");
    }
    const byName = Object.fromEntries(roles.map((r) => [r.name, r.tools]));
    for (const name of ["intent-lead", "project-lead", "worker", "verifier"]) {
      expect(byName[name]?.[1], name).toBe("bash");
    }
    // The proxy reads the caller's workspace: the editor (read-only there) and search, no shell.
    expect(byName.proxy).toEqual([
      "str_replace_based_edit_tool",
      "search_files",
      "answer",
      "escalate",
      "withdraw",
    ]);
  });

  it("shares the longest prefix of tools each role can with another (the cache's cross-role prefix)", () => {
    expect(Object.fromEntries(roles.map((r) => [r.name, sharedToolCount(r)]))).toEqual({
      "intent-lead": 3,
      "project-lead": 6,
      worker: 6,
      verifier: 2,
      proxy: 1,
    });
  });

  it("says in the system prompt what the schema-less tools cannot: paths, the session, the sandbox, the command list as a note", () => {
    const worker = withOverrides(
      roles.find((r) => r.name === "worker")!,
      {
        commands: ["git", "npm"],
        network: ["node"],
      },
    );
    const note = workspaceNote(worker);
    expect(note).toContain("relative to its root");
    expect(note).toContain("keeps, from one call to the next, the folder you `cd` into");
    expect(note).toContain("Network: only node");
    expect(note).toContain(
      "The programs this project expects of your role: git, npm. Others run too; each one outside this list is noted in the job's audit.",
    );
    expect(workspaceNote(loadRole("worker"))).toBe("");
    expect(workspaceNote(roles.find((r) => r.name === "proxy")!)).not.toContain("bash");
  });
});
