// `cfa replay` re-runs the engine over recorded responses, so the tools those responses call
// run again — MCP tools included. With the recorded repository's server available, the replay
// reaches the same end with the same results; without it (here: a `.mcp.json` whose command is
// not installed), the server's tools are absent, each recorded call to one is answered with an
// error naming that, the status comment says which server did not start, and the replay plays
// on to the same end; so does a `.mcp.json` that is not valid (a recording that expects the server's answer would diverge there, and
// say so, like any replay that leaves its recording).

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { main } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli/capture-io.js";
import { writeArtifact } from "../../support/engine/recordings.js";
import { call, expecting, recording, tools } from "../../support/engine/script.js";
import { git, removeDir, tempDir } from "../../support/git/temp-repo.js";
import { TINY_SERVER, TINY_SERVER_FILE } from "../../support/mcp/tiny-mcp-server.js";
import { bwrapSuite } from "../../support/sandbox/sandbox-fixtures.js";
import { SANDBOX_NODE } from "../../support/sandbox/sandbox-node.js";

const { bit, skipped } = bwrapSuite();
const ART = ".cfa/jobs/1";

let root: string;
beforeAll(() => {
  root = tempDir("cfa-replay-mcp-");
});
afterAll(() => removeDir(root));

/** The intent lead (given the MCP tools by mcp: in cfa.yml) calls the server, asks, is withdrawn. */
function replayFile(
  command: string,
  expectAnswer: boolean,
  mcpJson = JSON.stringify({ mcpServers: { tiny: { command, args: [TINY_SERVER_FILE] } } }),
) {
  const echo = tools(call("mcp__tiny__echo", { text: "hi" }, "toolu_echo"));
  const next = writeArtifact("INTENT.md", "# Intent\n");
  return {
    version: 1,
    request: { title: "Greet", body: "Write a greeting" },
    person: "ana",
    config: "mcp:\n  tools:\n    intent-lead: [mcp__tiny__*]\n",
    files: {
      "README.md": "# greet\n",
      [TINY_SERVER_FILE]: TINY_SERVER,
      ".mcp.json": mcpJson,
    },
    recording: recording({
      "intent-lead@state:intent:1": [
        echo,
        expectAnswer ? expecting(next, "echo: hi") : next,
        tools(call("ask_question", { kind: "question", text: "Which greeting?" })),
      ],
    }),
    people: [{ action: "withdraw", text: "not needed after all" }],
  };
}

async function replay(name: string, file: unknown) {
  const path = join(root, `${name}.json`);
  await writeFile(path, JSON.stringify(file));
  const dir = join(root, name);
  const io = captureIo({ cwd: root });
  const code = await main(["replay", path, "--dir", dir], io);
  const show = (p: string) => git(join(dir, "repo"), "show", `cfa/1:${ART}/${p}`);
  return { code, io, show };
}

interface ReplayedState {
  state: string;
  engine: { mcp?: { problems: { server: string; reason: string }[] } };
}

/** Replays `file`: it succeeds, quietly, to WITHDRAWN; the state and the lead's transcript. */
async function replayed(name: string, file: unknown) {
  const run = await replay(name, file);
  expect(run.io.err()).toBe("");
  expect(run.code).toBe(0);
  const state = JSON.parse(run.show("state.json")) as ReplayedState;
  expect(state.state).toBe("WITHDRAWN");
  return {
    problems: state.engine.mcp?.problems,
    lead: run.show("instances/intent-lead@state~intent~1.jsonl"),
  };
}

describe(`cfa replay of a job that used an MCP server${skipped}`, () => {
  bit(
    "with the server available: its tool runs again and the replay reaches the same end",
    async () => {
      const { problems, lead } = await replayed("available", replayFile(SANDBOX_NODE, true));
      expect(problems).toBeUndefined();
      expect(lead).toContain('"content":"echo: hi"');
    },
  );

  bit(
    "without it: the call is answered with an error, the server is named, the replay ends the same",
    async () => {
      const { problems, lead } = await replayed(
        "unavailable",
        replayFile("no-such-mcp-server-here", false),
      );
      expect(problems).toEqual([
        expect.objectContaining({
          server: "tiny",
          reason: expect.stringMatching(/^did not start: /),
        }),
      ]);
      expect(lead).toContain("cfa/mcp: mcp__tiny__echo is not available");
    },
  );

  bit(
    "a .mcp.json that is not valid: one line naming the file, no server, the job goes on",
    async () => {
      const { problems } = await replayed(
        "invalid",
        replayFile(SANDBOX_NODE, false, '{"mcpServers": '),
      );
      expect(problems).toEqual([
        expect.objectContaining({
          server: "",
          reason: expect.stringMatching(
            /^not valid on the default branch, so no MCP server runs: it is not JSON/,
          ),
        }),
      ]);
    },
  );
});
