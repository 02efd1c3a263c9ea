// A response that holds a secret the engine knows. Every input reaches the
// model redacted — tool results, incoming messages, people's words — so the model should
// never hold one; if it writes one anyway (guessed, or read where the engine could not
// redact it), the response is not kept: its blocks go neither into the conversation nor
// into the transcript or the response journal, and the turn fails, a state-level failure
// that says why (as a refusal does). Redacting the response instead would change an
// assistant turn that must go back to the API byte for byte (signed thinking included:
// docs/contributing.md, "Thinking blocks"), and a changed turn is one the API rejects.

export class ModelSecretError extends Error {
  override readonly name = "ModelSecretError";
  constructor(
    readonly instance: string,
    readonly model: string,
  ) {
    super(
      `cfa/model: ${model}'s response to ${instance} held a secret this process knows; ` +
        "it was not kept and the turn failed (no secret reaches a transcript or a commit)",
    );
  }
}
