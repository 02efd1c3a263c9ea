// A response that ended in a refusal (stop_reason "refusal"): the model declined to go on.
// A state-level failure that says so: the engine fails the turn with this error
// (it is not an infrastructure fault, so it is not ModelUnavailableError), the retry budget
// counts it, and the recovery message names it. What the API said is kept
// (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons: "refusal —
// Claude declined to respond. Read stop_details").

export class ModelRefusalError extends Error {
  override readonly name = "ModelRefusalError";
  constructor(
    readonly instance: string,
    readonly model: string,
    readonly category: string | null,
    readonly explanation: string | null,
  ) {
    const why = [category !== null ? `category ${category}` : "", explanation ?? ""]
      .filter((part) => part !== "")
      .join(": ");
    super(
      `cfa/model: ${model} refused to continue ${instance}${why !== "" ? ` (${why})` : ""}; ` +
        `the turn failed — rephrase the task or choose another model`,
    );
  }
}

export function isModelRefusal(error: unknown): error is ModelRefusalError {
  return error instanceof ModelRefusalError;
}
