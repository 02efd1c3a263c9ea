// Why a file operation failed, in words ("no such file"), for one-line answers; the errno
// code stays beside it for a search.

const REASONS: Record<string, string> = {
  ENOENT: "no such file or folder",
  EISDIR: "it is a folder, not a file",
  ENOTDIR: "a part of the path is a file, not a folder",
  EACCES: "permission denied",
  EPERM: "not permitted",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
};

export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && REASONS[code] !== undefined) return `${REASONS[code]} (${code})`;
  return code ?? (error as Error).message;
}
