// A model of the Messages API's prompt cache, as its documentation describes it
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching), for the cache bench:
//
// - A request is one sequence of blocks in cache-prefix order: tools, then system, then each
//   message's content blocks. A `cache_control` marker on a block makes it a breakpoint
//   (at most 4 per request); the cache key of a breakpoint is the whole prefix up to and
//   including its block, markers left out.
// - A breakpoint finds a cached entry at its own block or at an earlier block boundary, looking
//   back at most 20 blocks; the longest prefix found is read (`cache_read_input_tokens`).
// - The request writes an entry at each of its breakpoints past that hit, with the marker's
//   lifetime, 5 minutes by default or 1 hour (`ttl: "1h"`), from the hit to its last
//   breakpoint (`cache_creation_input_tokens`); what follows the last breakpoint is
//   uncached input.
// - Reading an entry refreshes its lifetime.
//
// Tokens are estimated as UTF-8 bytes / 4; the bench reports shares and ratios, which an
// estimate common to every block barely moves. An Anthropic-defined tool counts what the API
// adds for it, not its few bytes on the wire (CLIENT_TOOL_TOKENS: 245 for the bash tool, 700
// for the text editor, as their documentation says).

import { createHash } from "node:crypto";
import { CLIENT_TOOL_TOKENS } from "../src/ports/model.js";

const LOOKBACK = 20;
const TTL_MS = { "5m": 5 * 60_000, "1h": 60 * 60_000 } as const;

export interface CacheUsage {
  read: number;
  write5m: number;
  write1h: number;
  uncached: number;
}

interface Block {
  key: string;
  tokens: number;
  ttl: keyof typeof TTL_MS | null;
}

type Json = Record<string, unknown>;

function blocksOf(body: Json): Block[] {
  const out: Block[] = [];
  const push = (tag: string, block: Json) => {
    const { cache_control: marker, ...rest } = block as Json & { cache_control?: { ttl?: string } };
    const text = `${tag}${JSON.stringify(rest)}`;
    const defined = CLIENT_TOOL_TOKENS[rest.type as keyof typeof CLIENT_TOOL_TOKENS];
    out.push({
      key: text,
      tokens:
        tag === "tool:" && defined !== undefined ? defined : Math.ceil(Buffer.byteLength(text) / 4),
      ttl: marker === undefined ? null : marker.ttl === "1h" ? "1h" : "5m",
    });
  };
  for (const tool of (body.tools ?? []) as Json[]) push("tool:", tool);
  const system = body.system;
  if (typeof system === "string") push("system:", { type: "text", text: system });
  else for (const block of (system ?? []) as Json[]) push("system:", block);
  for (const message of (body.messages ?? []) as { role: string; content: Json[] | string }[]) {
    const content =
      typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : message.content;
    content.forEach((block, i) => push(i === 0 ? `${message.role}:` : "+", block));
  }
  return out;
}

export class PromptCache {
  private readonly entries = new Map<string, { expires: number; ttl: keyof typeof TTL_MS }>();
  /** Every distinct prefix ever sent, with its last block's tokens: what must be processed once. */
  private readonly distinct = new Map<string, number>();

  /**
   * The highest cache-read share any caching could reach over what was sent: every distinct
   * prefix block processed once, everything else read.
   */
  ceiling(totalInput: number): number {
    let once = 0;
    for (const tokens of this.distinct.values()) once += tokens;
    return 1 - once / totalInput;
  }

  /** What the API would bill for `body` sent at time `at` (ms), and the cache after it. */
  send(body: Json, at: number): CacheUsage {
    const blocks = blocksOf(body);
    // Prefix keys, chained: key[i] names blocks[0..i].
    const keys: string[] = [];
    const hash = createHash("sha256");
    for (const block of blocks) {
      hash.update(block.key);
      const key = hash.copy().digest("hex");
      keys.push(key);
      this.distinct.set(key, block.tokens);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.ttl === null ? [] : [i]));
    if (breakpoints.length > 4) throw new Error(`cache model: ${breakpoints.length} breakpoints`);
    let hit = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - (LOOKBACK - 1)); i--) {
        const entry = this.entries.get(keys[i]!);
        if (entry !== undefined && entry.expires > at) {
          if (i > hit) hit = i;
          break;
        }
      }
    }
    if (hit >= 0) {
      const entry = this.entries.get(keys[hit]!)!;
      entry.expires = at + TTL_MS[entry.ttl];
    }
    const usage: CacheUsage = { read: 0, write5m: 0, write1h: 0, uncached: 0 };
    const last = breakpoints.at(-1) ?? -1;
    blocks.forEach((block, i) => {
      if (i <= hit) usage.read += block.tokens;
      else if (i <= last) {
        // Written under the lifetime of the first breakpoint that covers it.
        const cover = breakpoints.find((b) => b >= i)!;
        if (blocks[cover]!.ttl === "1h") usage.write1h += block.tokens;
        else usage.write5m += block.tokens;
      } else usage.uncached += block.tokens;
    });
    for (const b of breakpoints) {
      if (b <= hit) continue;
      const ttl = blocks[b]!.ttl!;
      this.entries.set(keys[b]!, { expires: at + TTL_MS[ttl], ttl });
    }
    return usage;
  }
}
