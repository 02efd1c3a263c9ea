// A workspace whose boundary cannot be verified when it is created is an error at [spark]
// time, never a silent fall-through (docs/protocol.md#workspaces). This is that error.

export class WorkspaceBoundaryError extends Error {
  override readonly name = "WorkspaceBoundaryError";
  constructor(
    /** The workspace root that failed verification. */
    readonly path: string,
    /** What was wrong with it. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cfa/workspaces: the workspace at ${path} failed its boundary check: ${reason}; ` +
        "the instance is not sparked (check the workspace area and the repository)",
      options,
    );
  }
}
