// Where a request's cache breakpoints go: at most 4, the API's limit
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
//
// Fixed ones: the last system block, which closes the prefix every turn of the instance
// repeats; the last message, which the next request of the conversation repeats. Then, while
// there is room:
// - the role's block (before the instance's own): the prefix every instance of the role shares
//   in the job (a lead's PLAN and EXECUTE instances; the workers of three tasks);
// - the tools other roles open with too: roles list their tools in one order, so the bash
//   and editor tools, and the protocol tools two roles have in common, are the same first bytes
//   of their requests. The end of the longest prefix the role shares with another
//   (`sharedTools`: a worker's with a lead's); with room for one more, also the last
//   Anthropic-defined tool (the prefix every role with them shares). With only tools of ours,
//   the last tool;
// - the repository's instructions, when there is no role block;
// - the message before the previous assistant reply, which is exactly where the previous
//   request put its last breakpoint. A breakpoint finds an earlier entry at most 20 blocks back
//   (the same page, "The system automatically checks for cache hits at all previous content
//   block boundaries"); when the last round added more blocks than that, this marker is what
//   reaches the previous request's entry, and it goes before the optional ones above.
// The session handle resumes the conversation prefix from cache (docs/protocol.md#persistence).

import { isClientToolSpec, type Message, type ModelRequest } from "../../ports/model.js";

const MAX_BREAKPOINTS = 4;
/** Blocks a breakpoint looks back over for an earlier entry, itself included. */
const LOOKBACK_BLOCKS = 20;

export interface BreakpointPlan {
  /** The tools whose definitions carry a marker. */
  tools: number[];
  /** The instructions' system block carries one. */
  instructions: boolean;
  /** The role's system block carries one. */
  role: boolean;
  /** Indices of the messages whose last content block carries one. */
  messages: number[];
}

export function planBreakpoints(request: {
  tools: ModelRequest["tools"];
  messages: readonly Message[];
  instructions?: string | undefined;
  rolePrompt?: string | undefined;
  system?: string;
  sharedTools?: number | undefined;
}): BreakpointPlan {
  const plan: BreakpointPlan = { tools: [], instructions: false, role: false, messages: [] };
  const hasRole = request.rolePrompt !== undefined && request.rolePrompt !== "";
  // With no instance part, the role's block is the last one and carries the fixed marker.
  const roleIsLast = hasRole && (request.system ?? "") === "";
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
  if (hasRole && (roleIsLast || room())) {
    plan.role = true;
    if (!roleIsLast) used += 1;
  }
  if (request.tools.length > 0 && room()) {
    const shared = Math.min(request.sharedTools ?? 0, request.tools.length);
    const client = lastIndexWhere(request.tools, isClientToolSpec);
    // First the longest prefix the role shares with another (a worker's with a lead's); then,
    // with room, the end of the Anthropic-defined tools, the prefix every role with them shares.
    // An entry is written only past what a request read, so the job's first request (the
    // intent lead's, which has the room) is what writes that one, for an hour, for the roles
    // that share no more (the verifier).
    const longest = shared > 0 ? shared - 1 : client >= 0 ? client : request.tools.length - 1;
    plan.tools.push(longest);
    used += 1;
    if (client >= 0 && client < longest && room()) {
      plan.tools.push(client);
      used += 1;
    }
    plan.tools.sort((a, b) => a - b);
  }
  if (!hasRole && request.instructions !== undefined && request.instructions !== "" && room()) {
    plan.instructions = true;
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
