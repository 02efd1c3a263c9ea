// Where a request's cache breakpoints go: at most 4, the API's limit
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
//
// Fixed ones: the role's system block, which closes the prefix every turn of the instance
// repeats; the last message, which the next request of the conversation repeats. Then, while
// there is room:
// - the repository's instructions (the first system block): the prefix of tools and
//   instructions that every role with the same tools shares (a lead's PLAN and EXECUTE);
// - the last Anthropic-defined tool: the bash and editor tools open every request of the
//   roles that have them, in the same order and bytes, so their prefix is shared across roles;
//   with only tools of ours, the last tool (the role's tools, shared by its instances);
// - the message before the previous assistant reply, which is exactly where the previous
//   request put its last breakpoint. A breakpoint finds an earlier entry at most 20 blocks back
//   (the same page, "The system automatically checks for cache hits at all previous content
//   block boundaries"); when the last round added more blocks than that, this marker is what
//   reaches the previous request's entry, and it goes before the optional ones above.
// seed 000 §11: the session handle resumes the conversation prefix from cache.

import { isClientToolSpec, type Message, type ModelRequest } from "../../ports/model.js";

const MAX_BREAKPOINTS = 4;
/** Blocks a breakpoint looks back over for an earlier entry, itself included. */
const LOOKBACK_BLOCKS = 20;

export interface BreakpointPlan {
  /** The tool whose definition carries a marker, if any. */
  tool: number | null;
  /** The instructions' system block carries one. */
  instructions: boolean;
  /** Indices of the messages whose last content block carries one. */
  messages: number[];
}

export function planBreakpoints(
  request: {
    tools: ModelRequest["tools"];
    messages: readonly Message[];
    instructions?: string | undefined;
  },
): BreakpointPlan {
  const plan: BreakpointPlan = { tool: null, instructions: false, messages: [] };
  const last = request.messages.length - 1;
  // The role's system block is always marked.
  let used = 1;
  if (last >= 0) {
    plan.messages.push(last);
    used += 1;
  }
  const previousReply = lastIndexOfRole(request.messages, "assistant");
  const beforeReply = previousReply - 1;
  const hasBeforeReply = previousReply > 0 && beforeReply !== last;
  const room = () => used < MAX_BREAKPOINTS;
  const markBeforeReply = () => {
    if (hasBeforeReply && room() && !plan.messages.includes(beforeReply)) {
      plan.messages.push(beforeReply);
      used += 1;
    }
  };
  if (hasBeforeReply && blocksBetween(request.messages, beforeReply, last) >= LOOKBACK_BLOCKS) {
    markBeforeReply();
  }
  if (request.instructions !== undefined && request.instructions !== "" && room()) {
    plan.instructions = true;
    used += 1;
  }
  if (request.tools.length > 0 && room()) {
    const client = lastIndexWhere(request.tools, isClientToolSpec);
    plan.tool = client >= 0 ? client : request.tools.length - 1;
    used += 1;
  }
  markBeforeReply();
  plan.messages.sort((a, b) => a - b);
  return plan;
}

/** Indices of the messages whose last content block carries `cache_control`. */
export function messageBreakpoints(messages: readonly Message[]): number[] {
  return planBreakpoints({ tools: [], messages }).messages;
}

/** Content blocks after message `from`'s last one, up to and including message `to`'s last. */
function blocksBetween(messages: readonly Message[], from: number, to: number): number {
  let count = 0;
  for (let i = from + 1; i <= to; i++) count += messages[i]?.content.length ?? 0;
  return count;
}

function lastIndexOfRole(messages: readonly Message[], role: Message["role"]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === role) return i;
  return -1;
}

function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
