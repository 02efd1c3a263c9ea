// A transcript line that is neither valid nor a torn last line: the file was edited or
// corrupted, and resuming from it would replay a conversation that never happened.

export class TranscriptError extends Error {
  override readonly name = "TranscriptError";
  constructor(
    readonly line: number,
    problem: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cfa/transcript: line ${line}: ${problem}; repair or remove the instance transcript ` +
        `(the instance then starts over)`,
      options,
    );
  }
}
