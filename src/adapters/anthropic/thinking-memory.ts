// Current models think by default (several cannot be told not to), and the API requires the
// thinking blocks of an assistant message to come back, verbatim and in place, when its tool
// results are sent. The Model port has no thinking block, so the adapter keeps them here, per
// instance, for the current tool-use cycle only: from the last user message that is not a
// tool result to the end. Thinking blocks of earlier cycles may be omitted, and are, always,
// so a request built after a restart (from the transcript, which holds no thinking) is the
// same request a long-lived process builds. A restart in the middle of a cycle cannot happen
// without losing that turn anyway (seed 000 §11: crash-loss is bounded to one turn).

import type {
  ContentBlock,
  ContentBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { Message } from "../../ports/model.js";
import type { RestoreAssistant } from "./build-request.js";

export interface ThinkingMemory {
  /** Keeps a response's content if it holds thinking and asks for tools. */
  remember(instance: string, content: readonly ContentBlock[]): void;
  /** The restorer for one request; also forgets what the request no longer needs. */
  restorer(instance: string, messages: readonly Message[]): RestoreAssistant;
  /** How many responses are kept for an instance (for tests and diagnostics). */
  size(instance: string): number;
}

export function createThinkingMemory(): ThinkingMemory {
  const byInstance = new Map<string, Map<string, readonly ContentBlock[]>>();

  return {
    remember(instance, content) {
      const firstToolUse = content.find((block) => block.type === "tool_use");
      if (firstToolUse === undefined || !content.some(isThinking)) return;
      let kept = byInstance.get(instance);
      if (kept === undefined) byInstance.set(instance, (kept = new Map()));
      kept.set(firstToolUse.id, content);
    },

    restorer(instance, messages) {
      const kept = byInstance.get(instance);
      if (kept === undefined) return () => undefined;
      const start = cycleStart(messages);
      const live = new Set<string>();
      for (let i = start + 1; i < messages.length; i++) {
        const id = firstToolUseId(messages[i]);
        if (id !== undefined) live.add(id);
      }
      for (const id of kept.keys()) if (!live.has(id)) kept.delete(id);
      if (kept.size === 0) byInstance.delete(instance);

      return (index, mapped) => {
        if (index <= start) return undefined;
        const id = firstToolUseId(messages[index]);
        const original = id === undefined ? undefined : kept.get(id);
        return original === undefined ? undefined : splice(original, mapped);
      };
    },

    size(instance) {
      return byInstance.get(instance)?.size ?? 0;
    },
  };
}

/** Index of the last user message that carries no tool result (-1 if none). */
function cycleStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "user") continue;
    if (!message.content.some((block) => block.type === "tool_result")) return i;
  }
  return -1;
}

function firstToolUseId(message: Message | undefined): string | undefined {
  if (message?.role !== "assistant") return undefined;
  for (const block of message.content) if (block.type === "tool_use") return block.id;
  return undefined;
}

/**
 * The original block order, thinking blocks verbatim, every other block as mapped from the
 * port message. Undefined (send the message as mapped) when they no longer line up, e.g.
 * because the caller edited the message.
 */
function splice(
  original: readonly ContentBlock[],
  mapped: readonly ContentBlockParam[],
): ContentBlockParam[] | undefined {
  const out: ContentBlockParam[] = [];
  let next = 0;
  for (const block of original) {
    if (block.type === "thinking") {
      out.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
      continue;
    }
    if (block.type === "redacted_thinking") {
      out.push({ type: "redacted_thinking", data: block.data });
      continue;
    }
    const counterpart = mapped[next++];
    if (counterpart === undefined || counterpart.type !== block.type) return undefined;
    if (block.type === "tool_use" && counterpart.type === "tool_use") {
      if (counterpart.id !== block.id) return undefined;
    }
    out.push(counterpart);
  }
  return next === mapped.length ? out : undefined;
}

function isThinking(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}
