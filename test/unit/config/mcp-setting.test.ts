// `mcp:` in .github/cfa.yml: each role's tool-name patterns, workers and verifiers getting every
// server's tools by default.

import { describe, expect, it } from "vitest";
import { matchesToolPattern, parseConfig } from "../../../src/config/index.js";

describe("mcp: in .github/cfa.yml", () => {
  it("gives workers and verifiers mcp__* by default, the leads and the proxy nothing", () => {
    const parsed = parseConfig(null);
    expect(parsed.ok && parsed.config.mcp.tools).toEqual({
      "intent-lead": [],
      "project-lead": [],
      worker: ["mcp__*"],
      verifier: ["mcp__*"],
      proxy: [],
    });
  });

  it("narrows a role by pattern, and refuses a pattern that is not an MCP tool name", () => {
    const ok = parseConfig(
      "mcp:\n  tools:\n    verifier: [mcp__github__get_*]\n  callSeconds: 30\n",
    );
    expect(ok.ok && ok.config.mcp.tools.verifier).toEqual(["mcp__github__get_*"]);
    expect(ok.ok && ok.config.mcp.tools.worker).toEqual(["mcp__*"]);
    const bad = parseConfig("mcp:\n  tools:\n    worker: [run_command]\n");
    expect(bad.ok).toBe(false);
  });

  it.each([
    ["mcp__*", "mcp__github__get_issue", true],
    ["mcp__github__*", "mcp__github__get_issue", true],
    ["mcp__github__*", "mcp__gitlab__get_issue", false],
    ["mcp__*__get_*", "mcp__github__get_issue", true],
    ["mcp__*__get_*", "mcp__github__list_issues", false],
    ["mcp__github__get_issue", "mcp__github__get_issue", true],
    ["mcp__github__get_issue", "mcp__github__get_issues", false],
    ["mcp__a*a", "mcp__a", false],
  ])("%s matches %s: %s", (pattern, name, expected) => {
    expect(matchesToolPattern(pattern, name)).toBe(expected);
  });
});
