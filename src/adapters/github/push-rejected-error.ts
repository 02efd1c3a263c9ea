// A push refused because the branch on GitHub is no longer where the engine believed it
// was (pushes carry the expected old commit; a rejected push is re-read and retried,
// never forced). The engine catches this by name.

export class PushRejectedError extends Error {
  override readonly name = "PushRejectedError";
  readonly branch: string;
  readonly sha: string;
  /** The commit the engine expected the branch to be at; null for "must not exist". */
  readonly expectedOld: string | null;

  constructor(fields: { branch: string; sha: string; expectedOld: string | null; detail: string }) {
    const expected =
      fields.expectedOld === null ? "absent" : `at ${fields.expectedOld.slice(0, 7)}`;
    super(
      `cfa/github: the push of ${fields.sha.slice(0, 7)} to ${fields.branch} was refused: ` +
        `the branch is no longer ${expected} on the remote (${fields.detail}); ` +
        `re-read the branch and retry`,
    );
    this.branch = fields.branch;
    this.sha = fields.sha;
    this.expectedOld = fields.expectedOld;
  }
}
