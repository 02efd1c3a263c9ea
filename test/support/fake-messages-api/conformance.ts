// The rules every request must keep, checked on what actually arrived over HTTP, per instance:
//
// - at most 4 `cache_control` breakpoints (https://platform.claude.com/docs/en/build-with-claude/prompt-caching);
// - `system` and `tools` byte-identical across the instance's requests (the fixed prefix);
// - every earlier assistant turn sent back byte for byte as it was served, none dropped since
//   the conversation started (each served block's JSON appears in the raw body, in order;
//   https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks);
// - each tool_use answered by exactly one tool_result, in the very next user message
//   (https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls);
// - no empty or whitespace-only text block.
//
// A broken rule is recorded in `problems` and the request is answered 400, as the API would.

import type { ApiRequest } from "./server.js";

type Block = Record<string, unknown> & { type: string };
type Msg = { role: string; content: Block[] };

export class Conformance {
  readonly problems: string[] = [];
  private readonly prefixes = new Map<string, { system: string; tools: string }>();
  /** Per instance, the blocks served, in order, each as its exact JSON. */
  private readonly served = new Map<string, string[][]>();

  /** Checks a request of `instance`; returns the problems found (also kept in `problems`). */
  check(instance: string, request: ApiRequest): string[] {
    const found: string[] = [];
    const body = request.body ?? {};
    const messages = (body.messages ?? []) as Msg[];

    const markers = (request.raw.match(/"cache_control":/g) ?? []).length;
    if (markers > 4) found.push(`${markers} cache_control breakpoints (the API allows 4)`);

    const prefix = { system: JSON.stringify(body.system), tools: JSON.stringify(body.tools) };
    const before = this.prefixes.get(instance);
    if (before === undefined) this.prefixes.set(instance, prefix);
    else {
      if (before.system !== prefix.system) found.push("system changed within the instance");
      if (before.tools !== prefix.tools) found.push("tools changed within the instance");
    }

    // Earlier assistant turns, as served. After a restart (the conversation starts over with a
    // summary) the request carries none of them, which is fine: nothing sent back is altered.
    const sentBlocks = messages
      .filter((m) => m.role === "assistant")
      .flatMap((m) => m.content.map((b) => JSON.stringify(b)));
    const servedBlocks = (this.served.get(instance) ?? []).flat();
    if (sentBlocks.length > 0) {
      const at = servedBlocks.indexOf(sentBlocks[0]!);
      if (at < 0)
        found.push(`an assistant block that was never served: ${sentBlocks[0]!.slice(0, 120)}`);
      else {
        sentBlocks.forEach((block, i) => {
          if (servedBlocks[at + i] !== block) {
            found.push(`assistant block ${i} differs from what was served: ${block.slice(0, 160)}`);
          }
        });
        // Every turn served since the conversation (re)started comes back, the latest included.
        if (at + sentBlocks.length < servedBlocks.length) {
          found.push(
            `${servedBlocks.length - at - sentBlocks.length} served assistant blocks not sent back`,
          );
        }
      }
      let from = 0;
      for (const block of sentBlocks) {
        const where = request.raw.indexOf(block, from);
        if (where < 0) {
          found.push(`assistant block not in the body byte for byte: ${block.slice(0, 120)}`);
          break;
        }
        from = where + block.length;
      }
    }

    messages.forEach((message, i) => {
      for (const block of message.content) {
        if (block.type === "text" && String(block.text).trim() === "") {
          found.push(`messages.${i}: an empty text block`);
        }
      }
      if (message.role !== "assistant") return;
      const calls = message.content.filter((b) => b.type === "tool_use").map((b) => String(b.id));
      if (calls.length === 0) return;
      const next = messages[i + 1];
      if (next === undefined)
        return found.push(`messages.${i}: tool_use not answered`) && undefined;
      const results = next.content
        .filter((b) => b.type === "tool_result")
        .map((b) => String(b.tool_use_id));
      for (const id of calls) {
        const times = results.filter((r) => r === id).length;
        if (times !== 1) found.push(`messages.${i}: tool_use ${id} answered ${times} times`);
      }
      for (const id of results) {
        if (!calls.includes(id)) found.push(`messages.${i + 1}: a tool_result for unknown ${id}`);
      }
    });

    this.problems.push(...found.map((p) => `${instance}: ${p}`));
    return found;
  }

  /**
   * Forgets what was served to `instance` past its first `responses` answers: the instance's
   * process died and its conversation is taken again from there by another process (its
   * later turns were never kept), which the API, holding no state, cannot tell apart.
   */
  rewind(instance: string, responses: number): void {
    const list = this.served.get(instance);
    if (list !== undefined && list.length > responses) list.length = responses;
  }

  /** Remembers what was served to `instance`, block by block. */
  recordServed(instance: string, content: Block[]): void {
    const list = this.served.get(instance) ?? [];
    list.push(content.map((b) => JSON.stringify(b)));
    this.served.set(instance, list);
  }
}
