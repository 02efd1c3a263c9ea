// Bounded context, since past the window the API refuses the request: every request an instance
// sends stays inside its model's context window, with a margin, however many tool calls it makes
// and however large their results.
//
// Why not the API's own context management: compaction and context editing are betas, and
// not offered on every platform cfa-bot supports — on-demand compaction lists the Claude API,
// Claude Platform on AWS, Google Cloud and Microsoft Foundry, not Amazon Bedrock
// (https://platform.claude.com/docs/en/build-with-claude/compaction-background, supported
// platforms); context editing clears tool results server-side, which still sends the whole
// history and invalidates the cached prefix at every clearing
// (https://platform.claude.com/docs/en/build-with-claude/context-editing). So the bound is
// ours, the same everywhere: when the next request would not fit, the instance starts a fresh
// conversation (a `restart` message) seeded with a summary — its task as first given, the
// calls it made, the files it wrote, its last notes and the latest tool results — and the
// artifacts, which are in its workspace. Nothing earlier is sent again, so no earlier thinking
// block can be invalidated (the preserved-thinking rule applies to blocks that are sent).
//
// How tokens are counted: conservatively. Within a turn the API's own count anchors the
// estimate — a response's usage gives the exact size of the request it answered
// (input_tokens + cache reads + cache writes) and of its own output — and whatever was added
// since counts one token per byte of its JSON. Without an anchor (a turn's first request),
// every byte of system, tools and messages counts as a token. One token per byte is an upper
// bound for a byte-level tokenizer (a token covers at least one byte of the text), and the
// JSON's quotes and keys outweigh the few framing tokens per block; the margin (10% of the
// window) covers what the API adds besides. It over-counts English and code about three times,
// so an instance restarts earlier than it must, never later.

import { callFacts } from "../tools/call-facts.js";
import {
  CLIENT_TOOL_TOKENS,
  isClientToolSpec,
  type Message,
  type ModelLimits,
  type ModelUsage,
  type ToolSpec,
  type UserBlock,
} from "../../ports/model.js";

/** Assumed when the adapter does not say (the 4.x models' standard limits). */
export const DEFAULT_LIMITS: ModelLimits = { contextWindow: 200_000, maxOutput: 64_000 };

/** The share of the window never used: room for the estimate's error. */
export const CONTEXT_MARGIN = 0.1;

/** The most input tokens a request may carry, its output budget left free. */
export function inputLimit(limits: ModelLimits, maxTokens: number): number {
  return Math.floor(limits.contextWindow * (1 - CONTEXT_MARGIN)) - maxTokens;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a value's JSON: one token per byte is this module's upper bound. */
export function byteSize(value: unknown): number {
  return encoder.encode(JSON.stringify(value) ?? "").length;
}

/** A tool list's size in the same bound: its JSON, and what the API adds for its own tools. */
export function toolsSize(tools: readonly ToolSpec[]): number {
  let size = byteSize(tools);
  for (const tool of tools) if (isClientToolSpec(tool)) size += CLIENT_TOOL_TOKENS[tool.type];
  return size;
}

/** Where the requests start: the last restart message, or the beginning. */
export function viewStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "user" && message.restart === true) return i;
  }
  return 0;
}

/**
 * Estimates requests of one instance within a turn: after each response, the API's own count
 * of the request (and of the response, when it joins the conversation) anchors the estimate.
 */
export class ContextMeter {
  private anchor: { messages: number; tokens: number; start: number } | null = null;

  /**
   * A response arrived for a request made of `all.slice(start, countBefore)`; `all` now holds
   * `countAfter` messages (the response included, when it was kept).
   */
  observe(start: number, countAfter: number, usage: ModelUsage, kept: boolean): void {
    const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    this.anchor = { messages: countAfter, tokens: input + (kept ? usage.outputTokens : 0), start };
  }

  /** Input tokens of a request of `system`, `tools` and `all.slice(start)`, never less than real. */
  estimate(
    system: string,
    tools: readonly ToolSpec[],
    all: readonly Message[],
    start: number,
  ): number {
    const anchor = this.anchor;
    if (anchor !== null && anchor.start === start && all.length >= anchor.messages) {
      return anchor.tokens + byteSize(all.slice(anchor.messages));
    }
    return byteSize(system) + toolsSize(tools) + byteSize(all.slice(start));
  }
}

/** How much of a restart message each part may take, as shares of its byte budget. */
const SHARES = { task: 0.25, calls: 0.15, notes: 0.15, results: 0.4 } as const;
const MAX_CALLS_LISTED = 200;

/**
 * The message a fresh conversation starts with: a summary of the instance's work so far,
 * within `budgetBytes`. `all` is the instance's whole conversation (transcript and turn).
 */
export function restartMessage(all: readonly Message[], budgetBytes: number): Message {
  const first = all.find((m) => m.role === "user");
  const task = first === undefined ? "" : userText(first.content);
  const calls: string[] = [];
  const written = new Set<string>();
  let notes = "";
  for (const message of all) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type === "tool_use") {
        calls.push(`- ${block.name} ${describeInput(block.input)}`);
        const wrote = callFacts(block.name, block.input).writes;
        if (wrote !== undefined) written.add(wrote);
      } else if (block.type === "text" && block.text.trim() !== "") {
        notes = block.text;
      }
    }
  }
  const last = all.at(-1);
  const results = last?.role === "user" && last.restart !== true ? userText(last.content) : "";
  const listed = calls.slice(-MAX_CALLS_LISTED);
  const text = [
    "Your conversation grew too long for the model's context window, so it starts over here. " +
      "Your work is not lost: everything you wrote is in your workspace, so read again any " +
      "file you need instead of relying on memory, then carry on with the task.",
    `# Your task, as first given\n${clip(task, budgetBytes * SHARES.task)}`,
    `# What you did so far (${calls.length} tool call${calls.length === 1 ? "" : "s"}` +
      `${listed.length < calls.length ? `, the last ${listed.length} listed` : ""})\n` +
      clip(listed.join("\n") || "(none)", budgetBytes * SHARES.calls, "start") +
      (written.size > 0 ? `\n\nFiles you wrote or edited: ${[...written].sort().join(", ")}` : ""),
    `# Your last notes\n${clip(notes || "(none)", budgetBytes * SHARES.notes)}`,
    ...(results !== ""
      ? [`# The results of your last tool calls\n${clip(results, budgetBytes * SHARES.results)}`]
      : []),
  ].join("\n\n");
  return { role: "user", content: [{ type: "text", text }], restart: true };
}

function userText(content: readonly UserBlock[]): string {
  return content
    .map((block) =>
      block.type === "text"
        ? block.text
        : `[result of ${block.tool_use_id}${block.is_error === true ? ", an error" : ""}]\n${block.content}`,
    )
    .join("\n\n");
}

function describeInput(input: unknown): string {
  if (input === null || typeof input !== "object") return "";
  const record = input as Record<string, unknown>;
  const shown = ["path", "argv", "pattern", "task", "to", "kind"]
    .filter((key) => record[key] !== undefined)
    .map((key) => `${key}=${JSON.stringify(record[key])}`)
    .join(" ");
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

/** `text` cut to at most `bytes` UTF-8 bytes at its `cut` end, saying how much was left out. */
export function clip(text: string, bytes: number, cut: "end" | "start" = "end"): string {
  const limit = Math.max(0, Math.floor(bytes));
  const size = encoder.encode(text).length;
  if (size <= limit) return text;
  const note = `[… ${size - limit} bytes left out …]`;
  const room = Math.max(0, limit - encoder.encode(note).length - 1);
  // Characters are at most 4 bytes: cut by characters, then trim to the byte budget.
  let part = cut === "end" ? text.slice(0, room) : text.slice(text.length - room);
  while (encoder.encode(part).length > room) {
    const step = Math.max(1, part.length >> 4);
    part = cut === "end" ? part.slice(0, -step) : part.slice(step);
  }
  return cut === "end" ? `${part}\n${note}` : `${note}\n${part}`;
}

/** Even a fresh conversation would not fit: the system prompt and tools alone fill the window. */
export class ContextOverflowError extends Error {
  override readonly name = "ContextOverflowError";
}

/** Below this many bytes a restart summary would say nothing useful. */
const MIN_RESTART_BYTES = 4_096;

/**
 * Makes the next request fit: when `all` (the instance's conversation, this turn's messages
 * last) would not, appends a restart message to `added` (which `all` ends with). Returns
 * whether it restarted.
 */
export function fitContext(input: {
  all: Message[];
  added: Message[];
  system: string;
  tools: readonly ToolSpec[];
  meter: ContextMeter;
  limits: ModelLimits;
  maxTokens: number;
}): boolean {
  const { all, system, tools, meter } = input;
  const limit = inputLimit(input.limits, input.maxTokens);
  if (meter.estimate(system, tools, all, viewStart(all)) <= limit) return false;
  const budget = Math.floor((limit - byteSize(system) - toolsSize(tools)) * 0.8);
  if (budget < MIN_RESTART_BYTES) {
    throw new ContextOverflowError(
      `cfa/loop: the system prompt and tools alone (${byteSize(system) + toolsSize(tools)} bytes) ` +
        `leave no room in a ${input.limits.contextWindow}-token context window`,
    );
  }
  const restart = restartMessage(all, budget);
  input.added.push(restart);
  all.push(restart);
  return true;
}
