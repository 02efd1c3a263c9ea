// A request the recording does not answer: the run has diverged from the recorded one.

export class ScriptMismatchError extends Error {
  override readonly name = "ScriptMismatchError";
  constructor(
    readonly instance: string,
    /** The index of the step in the instance's list (its place in the recording's JSON). */
    readonly step: number,
    readonly differences: readonly string[],
    /** A short excerpt of the request's last user message. */
    readonly lastUser: string,
  ) {
    super(
      `cfa/scripted: ${instance} step ${step}: ${differences.join("; ")}; ` +
        `last user message: "${lastUser}". The run diverged from the recording: fix the ` +
        `script or record it again`,
    );
  }
}
