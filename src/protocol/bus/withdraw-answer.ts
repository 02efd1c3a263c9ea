// Withdraw rides on the answer (docs/protocol.md#escalation). `[WITHDRAW]\n<reason>` is the only
// protocol element that crosses the tool boundary; the calling skill writes its own withdraw
// outcome.

export const WITHDRAW_MARKER = "[WITHDRAW]";

export interface WithdrawAnswer {
  reason: string;
}

/** The reason of a `[WITHDRAW]\n<reason>` answer, or null for a plain answer. */
export function parseWithdrawAnswer(text: string): WithdrawAnswer | null {
  if (!text.startsWith(WITHDRAW_MARKER)) return null;
  const rest = text.slice(WITHDRAW_MARKER.length);
  // The marker must stand on its own line: "[WITHDRAWN]" or "[WITHDRAW] x" are plain text.
  if (rest === "") return { reason: "" };
  if (rest.startsWith("\r\n")) return { reason: rest.slice(2).trim() };
  if (rest.startsWith("\n")) return { reason: rest.slice(1).trim() };
  return null;
}

export const isWithdrawAnswer = (text: string): boolean => parseWithdrawAnswer(text) !== null;

export const withdrawAnswer = (reason: string): string => `${WITHDRAW_MARKER}\n${reason}`;
