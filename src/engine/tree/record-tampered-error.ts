// A record of the engine's that something else changed, created or replaced:
// an agent's command can write anything in its workspace, `.cfa/` included. The engine
// refuses to read it as its own; the turn that did it fails (contain-workspace.ts).

export class RecordTamperedError extends Error {
  override readonly name = "RecordTamperedError";
  constructor(
    /** Root-relative path of the record. */
    readonly path: string,
    /** What is wrong with it, for the message. */
    readonly what: string,
  ) {
    super(
      `cfa/records: ${path} ${what}: it is the engine's record and only the engine writes it (put back from its last write or the last commit)`,
    );
  }
}
