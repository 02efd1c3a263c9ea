// The fixed texts the loop itself puts in tool results, so tests and the engine can
// recognise them.

export const NOTES = {
  stillOpen: "still open: the answer will arrive as a later message",
  outcomeRecorded: "outcome recorded",
  capped: "not run: tool-call cap reached",
  cutByMaxTokens: "not run: the response was cut at the output token limit",
  cutByRefusal: "not run: the response ended in a refusal",
  alone: (names: string) =>
    `cfa/tools: not run: call ask_question and finish alone, as the only tool call in a response (this response called: ${names}); call the other tools first, then ask or finish in a response of its own`,
} as const;
