// Runs one agent turn for any instance (lead, worker, verifier, proxy): loads its transcript
// (the session handle, seed 000 §11), runs the turn through the agents layer, appends the
// turn to the transcript and accounts usage, turns and cost on the job record.

import type { Address } from "../protocol/address.js";
import { addressKey } from "../protocol/address.js";
import { loadTranscript, transcriptLines } from "../agents/transcript/index.js";
import { runTurn, type TurnResult } from "../agents/loop/index.js";
import { loadRole, withOverrides, type RoleName } from "../agents/roles/index.js";
import type { IncomingMessage, RoleDefinition } from "../agents/turn-contract.js";
import type { Workspace } from "../ports/workspaces.js";
import { appendText, readText, writeText } from "./files.js";
import { createHost, emptyDecisions, type TurnDecisions } from "./host.js";
import { PROTECTED_PREFIXES } from "./job-paths.js";
import type { Session } from "./session.js";

export interface AgentRun {
  result: TurnResult;
  decisions: TurnDecisions;
  /** The transcript turn number this run wrote. */
  turn: number;
}

export function roleFor(s: Session, name: RoleName): RoleDefinition {
  return withOverrides(loadRole(name), {
    commands: s.config.commands[name],
    network: s.config.network[name],
  });
}

export async function runAgent(
  s: Session,
  input: {
    address: Address;
    role: RoleName;
    ws: Workspace;
    readOnly: boolean;
    /** Root-relative prefixes the agent may not write; `!path` entries are exceptions. */
    protect?: string[];
    system: string;
    incoming: IncomingMessage;
    policyAllowsEscalate?: boolean;
    signal?: AbortSignal;
  },
): Promise<AgentRun> {
  const role = roleFor(s, input.role);
  const file = s.paths.instance(input.address);
  const text = (await readText(s.jobWs.root, file)) ?? "";
  const loaded = loadTranscript(text);
  if (loaded.dropped > 0) await writeText(s.jobWs.root, file, loaded.completeText);
  const decisions = emptyDecisions();
  const host = createHost(s, input.address, role, input.ws, decisions, {
    ...(input.policyAllowsEscalate === undefined
      ? {}
      : { policyAllowsEscalate: input.policyAllowsEscalate }),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const modelName = s.deps.resolveModel(s.config.models[input.role]);
  const result = await runTurn({
    instance: input.address,
    role,
    model: s.deps.model,
    modelName,
    system: input.system,
    transcript: loaded.messages,
    incoming: input.incoming,
    workspace: {
      root: input.ws.root,
      protect: input.protect ?? PROTECTED_PREFIXES,
      readOnly: input.readOnly,
    },
    host,
    limits: {
      toolCallsPerTurn: s.config.limits.toolCallsPerTurn,
      maxTokens: s.config.limits.maxTokens,
      readBytes: 200_000,
    },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const turn = loaded.turn + 1;
  const lines = transcriptLines(turn, result.messages, {
    usage: result.usage,
    stop: result.stopReason,
  });
  await appendText(s.jobWs.root, file, lines.map((l) => `${l}\n`).join(""));
  account(s, modelName, result);
  s.deps.logger.debug(`cfa #${s.n} ${addressKey(input.address)} turn ${turn}`, {
    modelCalls: result.modelCalls,
    toolCalls: result.toolCalls,
    modelMs: Math.round(result.modelMs),
  });
  return { result, decisions, turn };
}

function account(s: Session, model: string, result: TurnResult): void {
  const u = s.job.usage;
  s.job = {
    ...s.job,
    turns: s.job.turns + 1,
    usage: {
      inputTokens: u.inputTokens + result.usage.inputTokens,
      outputTokens: u.outputTokens + result.usage.outputTokens,
      cacheReadTokens: u.cacheReadTokens + result.usage.cacheReadTokens,
      cacheWriteTokens: u.cacheWriteTokens + result.usage.cacheWriteTokens,
    },
    costUsd: s.job.costUsd + s.deps.price(model, result.usage),
  };
}
