// One turn of one instance: Run(A, t, m) of docs/protocol.md#message-soup. The model is called, its
// tool calls are run in order, their results go back, until the model stops ([send-step] /
// [nosend-step] for the engine to tell apart), asks ([ask-step], docs/protocol.md#escalation),
// finishes (the outcome record, docs/protocol.md#skill-contract), or the tool-call cap ends the
// turn.

import type {
  AssistantBlock,
  Message,
  ModelResponse,
  ModelUsage,
  StopReason,
  ToolResultBlock,
  ToolUseBlock,
} from "../../ports/model.js";
import { addressKey } from "../../protocol/address.js";
import { sumUsage } from "../transcript/sum-usage.js";
import { runToolCall } from "../tools/run-tool-call.js";
import type { ToolContext } from "../tools/tool.js";
import { isTurnEndingTool } from "../tools/tool-names.js";
import { toolSpecs } from "../tools/tool-registry.js";
import type { TurnEnd, TurnInput, TurnOutput } from "../turn-contract.js";
import { NOTES } from "./loop-notes.js";
import { modelCalls } from "./model-calls.js";
import { incomingText, openingMessage } from "./opening-message.js";
import { holdsKnownSecret } from "../../secrets/index.js";
import { ModelSecretError } from "./model-secret-error.js";
import { toolResultBlock } from "./tool-result-block.js";
import { requestMessages } from "./request-messages.js";
import { sharedToolCount } from "../roles/shared-tools.js";
import { givenInstructions, nearbyInstructions } from "../instructions/repo-instructions.js";
import { isMcpToolName, openMcpToolbox, type McpToolbox } from "../mcp/index.js";

/**
 * TurnOutput plus what the transcript's turn-end line needs and the contract does not
 * carry: the stop reason of the turn's last response (why a "stopped" turn stopped).
 */
export interface TurnResult extends TurnOutput {
  stopReason: StopReason;
}

export async function runTurn(input: TurnInput): Promise<TurnResult> {
  // The turn's MCP servers live as long as the turn: their tools are in its first request,
  // and nothing they started outlives it, whatever way the turn ends.
  const mcp = input.mcp ? await openMcpToolbox(input.mcp, input.signal) : null;
  try {
    return await runLoop(input, mcp);
  } finally {
    await mcp?.close();
  }
}

async function runLoop(input: TurnInput, mcp: McpToolbox | null): Promise<TurnResult> {
  const { role, model, signal, limits } = input;
  const instance = addressKey(input.instance);
  // MCP tools after the built-in ones, so the roles' shared prefix of tools stays shared.
  const tools = [...toolSpecs(role), ...(mcp?.specs ?? [])];
  const added: Message[] = [openingMessage(input.transcript, input.incoming)];
  const instructions = input.instructions;
  let given: Set<string> | null = null;
  const ctx: ToolContext = {
    role,
    workspace: input.workspace,
    host: input.host,
    limits: { readBytes: limits.readBytes },
    ...(signal === undefined ? {} : { signal }),
    ...(instructions === undefined || instructions.nested.size === 0
      ? {}
      : {
          nearbyInstructions: (path: string, kind: "file" | "folder") => {
            // What the conversation the model sees already carries is not given again.
            given ??= givenInstructions(
              userTexts(requestMessages([...input.transcript, ...added])),
              instructions,
            );
            return nearbyInstructions(instructions, given, path, kind);
          },
        }),
  };
  // Output budget, effort, cache lifetime, the context bound and stop reasons.
  const calls = modelCalls({
    instance,
    role: role.name,
    model,
    modelName: input.modelName,
    system: input.system,
    rolePrompt: input.rolePrompt,
    instructions: instructions?.prompt,
    sharedTools: role.toolSet === "classic" ? 0 : sharedToolCount(role),
    tools,
    output: {
      ...input.output,
      ...(limits.maxTokens !== undefined ? { maxTokens: limits.maxTokens } : {}),
    },
  });
  const usages: ModelUsage[] = [];
  let modelMs = 0;
  let toolCalls = 0;
  let stopReason: StopReason = "end_turn";
  const end = (kind: TurnEnd): TurnResult => ({
    messages: added,
    usage: sumUsage(usages),
    end: kind,
    modelCalls: usages.length,
    toolCalls,
    modelMs,
    stopReason,
  });

  for (;;) {
    signal?.throwIfAborted();
    const request = calls.next(input.transcript, added);
    // The boundary's say before every call (turn-contract.ts CallBoundary).
    const decision = (await input.boundary?.before({ request, added, calls: usages.length })) ?? {
      kind: "call" as const,
    };
    if (decision.kind === "stop") {
      return end({ kind: "halted", cause: decision.cause, reason: decision.reason });
    }
    if (decision.kind === "inject") {
      // [interrupt] (docs/protocol.md#intervention): the next request carries the new message
      // after what the turn has done so far (its tool results), so the Run resumes on it with
      // its context.
      added.push({
        role: "user",
        content: [{ type: "text", text: incomingText(decision.message) }],
      });
      continue;
    }
    let response: ModelResponse;
    if (decision.kind === "replay") {
      response = decision.response;
    } else {
      const started = performance.now();
      try {
        response = await model.complete(request, signal === undefined ? undefined : { signal });
      } finally {
        modelMs += performance.now() - started;
      }
    }
    usages.push(response.usage);
    stopReason = response.stopReason;
    // A response cut at the output budget is not kept and the request goes again with a larger
    // budget (model-calls.ts); a refusal fails the turn by name. Either way the boundary has priced
    // and persisted the response first.
    // A response that holds a secret is not kept anywhere (model-secret-error.ts).
    const leaked = holdsKnownSecret(JSON.stringify(response.content));
    const verdict = leaked
      ? new ModelSecretError(instance, input.modelName)
      : calls.judge(response, request);

    // The API rejects empty messages and blank text blocks: keep only what carries content.
    const content = verdict === "use" ? response.content.filter(hasContent) : [];
    if (content.length > 0) added.push({ role: "assistant", content });
    // Priced and persisted before any of its tool calls run, so every cap sees it and no
    // retry pays for it again.
    await input.boundary?.after({
      request,
      added,
      calls: usages.length - 1,
      response: leaked ? { ...response, content: [] } : response,
      replayed: decision.kind === "replay",
    });
    if (verdict === "retry") continue;
    if (verdict !== "use") throw verdict;
    calls.used(response, input.transcript.length + added.length);
    const toolUses = content.filter((block): block is ToolUseBlock => block.type === "tool_use");

    if (toolUses.length === 0) return end({ kind: "stopped" });

    // A response runs whole or not at all: its calls were planned together. A lone
    // ask_question or finish still runs past the cap, since it ends the turn anyway — once:
    // a refused one does not end it, and a model that repeats it must still meet the cap
    // (a lead calling a refused finish forever once kept its turn, and the job, alive).
    const loneEnding =
      toolUses.length === 1 &&
      isTurnEndingTool(toolUses[0]?.name) &&
      toolCalls <= limits.toolCallsPerTurn;
    if (!loneEnding && toolCalls + toolUses.length > limits.toolCallsPerTurn) {
      return end({ kind: "capped" });
    }
    toolCalls += toolUses.length;

    if (toolUses.length > 1 && toolUses.some((call) => isTurnEndingTool(call.name))) {
      const names = [...new Set(toolUses.map((call) => call.name))].join(", ");
      added.push(userResults(toolUses.map((c) => toolResultBlock(c.id, NOTES.alone(names), true))));
      continue;
    }

    const results: ToolResultBlock[] = [];
    for (const call of toolUses) {
      signal?.throwIfAborted();
      const result =
        mcp !== null && isMcpToolName(call.name)
          ? await mcp.call(call.name, call.input, signal)
          : await runToolCall(call, ctx);
      // Only a lone call gets here with `end`: its result arrives at the next turn's start.
      if (result.end !== undefined && !result.isError) return end(result.end);
      results.push(toolResultBlock(call.id, result.text, result.isError));
    }
    added.push(userResults(results));
  }
}

function hasContent(block: AssistantBlock): boolean {
  return block.type !== "text" || block.text.trim() !== "";
}

function userResults(results: ToolResultBlock[]): Message {
  return { role: "user", content: results };
}

/** Every text a conversation's user messages carry: their text blocks and tool results. */
function userTexts(messages: readonly Message[]): string[] {
  return messages.flatMap((m) =>
    m.role === "user" ? m.content.map((b) => (b.type === "text" ? b.text : b.content)) : [],
  );
}
