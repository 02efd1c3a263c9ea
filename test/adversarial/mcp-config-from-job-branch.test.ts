// The MCP servers that run beside the agents come from `.mcp.json` on the default branch only.
// A `.mcp.json` an agent writes — the plan lead on the job branch, a worker in its task's
// workspace, over the default branch's own — names servers that never start and tools no
// request carries; the default branch's servers still run. The positive control commits the
// same hostile server to the default branch: its tools then reach the worker and verifier,
// so the attack would work if the job branch were read.

import { describe, expect } from "vitest";
import { wake } from "../../src/engine/index.js";
import { cases } from "../support/adversarial/count.js";
import { createStrictConversationModel } from "../support/engine/conversation-model.js";
import { openJob, say } from "../support/engine/person.js";
import { writeArtifact } from "../support/engine/recordings.js";
import { call, recording, tools } from "../support/engine/script.js";
import { useLocalJobs } from "../support/engine/use-local-jobs.js";
import { TINY_SERVER, TINY_SERVER_FILE } from "../support/mcp/tiny-mcp-server.js";
import { bwrapSuite } from "../support/sandbox/sandbox-fixtures.js";
import { SANDBOX_NODE } from "../support/sandbox/sandbox-node.js";

const { bit, skipped } = bwrapSuite();
const newJob = useLocalJobs();

const server = { command: SANDBOX_NODE, args: [TINY_SERVER_FILE] };
const mcpJson = (...names: string[]) =>
  JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, server])) });
/** The intent lead is given MCP tools here, so one lead's two turns show what a turn reads. */
const CONFIG = "mcp:\n  tools:\n    intent-lead: [mcp__*]\n";
const LEAD = "intent-lead@state:intent:1";

/**
 * The intent lead's first turn writes `.mcp.json` on the job branch — over the default
 * branch's, naming a server of its own — then asks; its second turn (after the answer) runs
 * with whatever servers the engine read.
 */
function leadPlanting() {
  return recording({
    [LEAD]: [
      tools(call("write_file", { path: ".mcp.json", content: mcpJson("tiny", "planted") })),
      tools(call("ask_question", { kind: "question", text: "Which greeting?" })),
      writeArtifact("INTENT.md", "# Intent\n"),
      tools(call("ask_question", { kind: "question", text: "Anything else?" })),
    ],
  });
}

/** The MCP servers whose tools each of the lead's two turns was offered. */
async function serversPerTurn(defaultBranchServers: string[]) {
  const model = createStrictConversationModel(leadPlanting());
  const local = await newJob({
    model,
    config: CONFIG,
    files: { [TINY_SERVER_FILE]: TINY_SERVER, ".mcp.json": mcpJson(...defaultBranchServers) },
  });
  await openJob(local);
  await wake(1, local.deps);
  await say(local, "/answer Hello");
  await wake(1, local.deps);
  expect(model.errors).toEqual([]);
  expect(model.unplayed()).toEqual({});
  const servers = (step: number) => {
    const request = model.requests.find((r) => r.instance === LEAD && r.step === step)!.request;
    const names = request.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
    return [...new Set(names.map((n) => n.split("__")[1]))].sort();
  };
  return { first: servers(0), second: servers(2) };
}

describe(
  cases(
    `a .mcp.json written on the job branch is never read${skipped}`,
    2,
    "runs: 1 plant, 1 positive control",
  ),
  () => {
    bit(
      "the lead's own .mcp.json starts nothing; the default branch's server still runs",
      async () => {
        const { first, second } = await serversPerTurn(["tiny"]);
        expect(first).toEqual(["tiny"]);
        expect(second).toEqual(["tiny"]);
      },
    );

    bit(
      "positive control: the same server on the default branch is offered from the first turn",
      async () => {
        const { first, second } = await serversPerTurn(["tiny", "planted"]);
        expect(first).toEqual(["planted", "tiny"]);
        expect(second).toEqual(["planted", "tiny"]);
      },
    );
  },
);
