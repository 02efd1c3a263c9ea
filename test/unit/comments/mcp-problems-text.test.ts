// A server the agents could not be given is one line in the status comment: which server,
// what the engine saw, who met it; a `.mcp.json` that is not valid is one line for the file.

import { describe, expect, it } from "vitest";
import { initialEngineState, type EngineState } from "../../../src/records/engine-state.js";
import { renderStatus as render } from "../../support/comments/status-fixture.js";

describe("MCP servers in the status comment", () => {
  it("says each problem in one line, the file's first", () => {
    const engine: EngineState = {
      ...initialEngineState("ana"),
      mcp: {
        problems: [
          {
            server: "",
            reason: "not valid on the default branch, so no MCP server runs: it is not JSON",
            by: "wake",
            count: 1,
            first: "t",
            last: "t",
          },
          {
            server: "pw",
            reason: "did not start: exited (exit code 1)",
            by: "worker@dispatch:a",
            count: 3,
            first: "t",
            last: "t",
          },
        ],
      },
    };
    const body = render(engine);
    expect(body).toContain("**MCP servers** (`.mcp.json` on the default branch)");
    expect(body).toContain(
      "- `.mcp.json`: `not valid on the default branch, so no MCP server runs: it is not JSON` — `wake`",
    );
    expect(body).toContain(
      "- server `pw`: `did not start: exited (exit code 1)` — `worker@dispatch:a` (3 times)",
    );
    expect(render(initialEngineState("ana"))).not.toContain("MCP servers");
  });
});
