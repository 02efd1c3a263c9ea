// Where the rolling message breakpoints go. With the fixed ones on the last tool and on the
// system block, that is at most 4 per request, the API's limit.
//
// Each request marks the last block of its last message, and the last block of the message
// before the previous assistant reply, which is exactly where the previous request put its
// last breakpoint. So every request repeats the previous one's bytes, that marker included,
// up to that point, and the API reads that prefix from cache. The one byte difference is
// the previous request's older message marker, which rolls off: the API leaves markers out
// of the cache key, so that costs no hit. seed 000 §11: the session handle resumes the
// conversation prefix from cache.

import type { Message } from "../../ports/model.js";

/** Indices of the messages whose last content block carries `cache_control`. */
export function messageBreakpoints(messages: readonly Message[]): number[] {
  const last = messages.length - 1;
  if (last < 0) return [];
  const out = [last];
  const previousReply = lastIndexOfRole(messages, "assistant");
  const beforeReply = previousReply - 1;
  if (previousReply > 0 && beforeReply !== last) out.push(beforeReply);
  return out.sort((a, b) => a - b);
}

function lastIndexOfRole(messages: readonly Message[], role: Message["role"]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === role) return i;
  return -1;
}
