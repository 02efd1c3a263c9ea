// Runs one agent turn for any instance (lead, worker, verifier, proxy): loads its transcript (the
// session handle, docs/protocol.md#persistence), runs the turn through the agents layer with the
// engine's model-call boundary (call-boundary.ts: caps, timeout, interventions, the response
// journal, per-response charges), and hands back what the turn did and how to record it.
//
// A turn's transcript lines reach the job worktree only when the turn is recorded: for a scheduled
// turn, when it is applied (the commit of one turn never holds another's unapplied transcript); for
// the proxy and the verifier, at once (they run alone, or inside the turn that called them). Until
// then a response's durable copy is the journal.

import type { Address } from "../../protocol/address.js";
import { addressKey } from "../../protocol/address.js";
import { loadTranscript, responseLine, transcriptLines } from "../../agents/transcript/index.js";
import {
  pendingToolUses,
  runTurn,
  toolResultBlock,
  type TurnResult,
} from "../../agents/loop/index.js";
import type { RoleName } from "../../agents/roles/index.js";
import type { IncomingMessage } from "../../agents/turn-contract.js";
import { isModelUnavailable, type Message } from "../../ports/model.js";
import { isDiskFull } from "../../ports/disk-full.js";
import type { Workspace } from "../../ports/workspaces.js";
import { sumUsage } from "../../agents/transcript/index.js";
import { appendText, readText, writeText } from "../tree/files.js";
import { createCallBoundary, timeoutReason, type TurnLedger } from "./call-boundary.js";
import { createHost, emptyDecisions, type TurnDecisions, type VerifyTask } from "./host.js";
import { mcpForTurn } from "./mcp-for-turn.js";
import { roleFor } from "./role-for.js";
import { repoInstructions } from "./repo-instructions.js";
import type { SystemPrompt } from "./prompts.js";
import { PROTECTED_PREFIXES } from "../../records/job-paths.js";
import { applyChange, type Reporter, type Session } from "../job/session.js";
import { endTurn, runtimeOf, startTurn } from "./wake-runtime.js";

export interface AgentRun {
  result: TurnResult;
  decisions: TurnDecisions;
  /** The transcript turn number this run wrote (or will write). */
  turn: number;
  /**
   * Set when the turn did not end on its own: the model call or a tool threw (not an
   * infrastructure fault), or the turn's deadline cut it. What it did is kept (its
   * transcript, its workspace, its calls); the engine counts it as a state-level failure.
   */
  failure: string | null;
  /** Model calls answered from the response journal: a redone turn's, paid before. */
  replayed: number;
  /** The turn's wall time, start to end, by the engine's monotonic clock (ms). */
  wallMs: number;
  /** Appends the turn to the instance's transcript in the job worktree (once). */
  record(): Promise<void>;
}

/** Monotonic milliseconds for turn deadlines (deps.monotonic lets tests drive time). */
const monotonicOf = (s: Reporter) => s.deps.monotonic ?? (() => performance.now());

export async function runAgent(
  s: Session,
  input: {
    address: Address;
    role: RoleName;
    ws: Workspace;
    readOnly: boolean;
    /** Root-relative prefixes the agent may not write; `!path` entries are exceptions. */
    protect?: string[];
    system: SystemPrompt;
    incoming: IncomingMessage;
    policyAllowsEscalate?: boolean;
    signal?: AbortSignal;
    /** Write the transcript when the turn ends (default), or leave it to `record()`. */
    recordNow?: boolean;
    /** For the current lead: an intervention that preempts its Run ([interrupt]). */
    interrupt?: () => Promise<IncomingMessage | null>;
    /** The turn's ticket when the caller registered it already (wake-runtime.ts). */
    ticket?: number;
    /** How the turn's `close` has a task verified (leads and workers). */
    verify?: VerifyTask;
  },
): Promise<AgentRun> {
  const key = addressKey(input.address);
  const ticket = input.ticket ?? startTurn(s, key);
  try {
    return await runRegistered(s, input, ticket);
  } finally {
    endTurn(s, ticket);
  }
}

async function runRegistered(
  s: Session,
  input: Parameters<typeof runAgent>[1],
  ticket: number,
): Promise<AgentRun> {
  const role = roleFor(s, input.role);
  const file = s.paths.instance(input.address);
  const text = (await readText(s.jobWs.root, file)) ?? "";
  const loaded = loadTranscript(text);
  const turn = loaded.turn + 1;
  const decisions = emptyDecisions();
  const modelName = s.deps.resolveModel(s.config.models[input.role]);
  const monotonic = monotonicOf(s);
  const timeoutMs = s.config.limits.turnTimeoutSeconds * 1000;
  const startedAt = monotonic();
  const { boundary, ledger } = createCallBoundary(s, {
    address: input.address,
    modelName,
    ticket,
    startedAt,
    monotonic,
    timeoutMs,
    ...(input.interrupt ? { interrupt: input.interrupt } : {}),
  });

  // The turn's deadline cuts a call or command in flight, not only the next call.
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    ledger.timedOut = timeoutReason(addressKey(input.address), monotonic() - startedAt, timeoutMs);
    deadline.abort(new Error(ledger.timedOut));
  }, timeoutMs);
  timer.unref?.();
  const signal = input.signal ? AbortSignal.any([input.signal, deadline.signal]) : deadline.signal;

  const host = createHost(s, input.address, role, input.ws, decisions, {
    ...(input.policyAllowsEscalate === undefined
      ? {}
      : { policyAllowsEscalate: input.policyAllowsEscalate }),
    signal,
    protect: input.protect ?? PROTECTED_PREFIXES,
    ...(input.verify ? { verify: input.verify } : {}),
  });
  let result: TurnResult;
  let failure: string | null = null;
  try {
    const mcp = await mcpForTurn(s, input.address, input.role, input.ws.root);
    result = await runTurn({
      instance: input.address,
      role,
      model: s.deps.model,
      modelName,
      system: input.system.instance,
      rolePrompt: input.system.role,
      instructions: await repoInstructions(s),
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
      output: s.config.output[input.role],
      signal,
      boundary,
      ...(mcp === undefined ? {} : { mcp }),
    });
  } catch (error) {
    if (ledger.slot !== null) runtimeOf(s).gate.settle(ledger.slot);
    ledger.slot = null;
    // Infrastructure (the API away past the adapter's patience) and a stopped wake are not
    // the agent's failures: the turn is not kept, its calls stay in the journal.
    if (isModelUnavailable(error) || isDiskFull(error) || input.signal?.aborted) throw error;
    if (ledger.added === null) throw error;
    failure = ledger.timedOut ?? `${errorName(error)}${(error as Error).message ?? String(error)}`;
    result = failedResult(ledger, failure);
  } finally {
    clearTimeout(timer);
  }
  const wallMs = Math.max(0, monotonic() - startedAt);
  if (result.end.kind === "halted" && result.end.cause === "timeout") failure = result.end.reason;

  let recorded = false;
  const record = async () => {
    if (recorded) return;
    recorded = true;
    // A transcript a crash left with an unfinished turn, or a torn line, is cut back first.
    const current = loadTranscript((await readText(s.jobWs.root, file)) ?? "");
    if (current.dropped > 0) await writeText(s.jobWs.root, file, current.completeText);
    // Each response's own line (what it cost, who answered) after the message it produced.
    const lines: string[] = [];
    result.messages.forEach((message, i) => {
      lines.push(...transcriptLines(turn, [message]));
      for (const r of ledger.responses)
        if (r.at === i + 1) lines.push(responseLine(turn, r.response));
    });
    lines.push(...transcriptLines(turn, [], { usage: result.usage, stop: result.stopReason }));
    await appendText(s.jobWs.root, file, lines.map((l) => `${l}\n`).join(""));
  };
  if (input.recordNow !== false) await record();
  applyChange(s, { type: "turn-counted" });
  s.deps.logger.debug(`cfa #${s.n} ${addressKey(input.address)} turn ${turn}`, {
    modelCalls: result.modelCalls,
    replayed: ledger.replayed,
    toolCalls: result.toolCalls,
    modelMs: Math.round(result.modelMs),
  });
  return { result, decisions, turn, failure, replayed: ledger.replayed, wallMs, record };
}

/**
 * The turn as far as it got: every message so far, each tool call left without a result
 * answered as not run (the Messages API needs every tool_use answered), usage of the
 * responses it had.
 */
function failedResult(ledger: TurnLedger, reason: string): TurnResult {
  const messages: Message[] = [...(ledger.added ?? [])];
  const open = pendingToolUses(messages);
  if (open.length > 0) {
    const note = `Not run: the turn failed (${reason.slice(0, 300)}).`;
    messages.push({ role: "user", content: open.map((c) => toolResultBlock(c.id, note, true)) });
  }
  return {
    messages,
    usage: sumUsage(ledger.usages),
    end: { kind: "failed", reason },
    modelCalls: ledger.paid + ledger.replayed,
    toolCalls: 0,
    modelMs: 0,
    stopReason: "end_turn",
  };
}

function errorName(error: unknown): string {
  const name = (error as Error | undefined)?.name;
  return name && name !== "Error" ? `${name}: ` : "";
}
