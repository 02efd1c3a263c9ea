// A response cut at the model's own output limit even after the budget was raised to it:
// nothing larger can be asked for, so the turn fails and says why (a state-level failure).

export class OutputLimitError extends Error {
  override readonly name = "OutputLimitError";
  constructor(
    readonly instance: string,
    readonly model: string,
    readonly maxTokens: number,
  ) {
    super(
      `cfa/model: ${model}'s response for ${instance} did not fit ${maxTokens} output tokens, ` +
        `the most it can write; ask for smaller steps (a file at a time)`,
    );
  }
}
