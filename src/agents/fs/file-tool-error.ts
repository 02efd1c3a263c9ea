// Errors of the file tools that are not boundary refusals: the file is missing, the edit
// did not match, the pattern is invalid. The agent reads the message and tries again.

export const FILE_TOOL_ERROR_CODES = [
  "not-found",
  "not-a-file",
  "is-a-directory",
  "not-a-directory",
  "too-large",
  "not-text",
  "no-match",
  "ambiguous-match",
  "empty-match",
  "invalid-pattern",
  /** A search ran past its deadline (search-files.ts). */
  "timed-out",
  "io",
  "unanchored",
] as const;
export type FileToolErrorCode = (typeof FILE_TOOL_ERROR_CODES)[number];

export class FileToolError extends Error {
  override readonly name = "FileToolError";
  constructor(
    readonly code: FileToolErrorCode,
    /** The path as the tool asked for it. */
    readonly requested: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/fs: ${JSON.stringify(requested)}: ${detail}`, options);
  }
}
