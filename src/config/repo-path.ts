// A path inside a repository as a person writes it in a file we read (`instructions:` in
// .github/cfa.yml, a replay file's `files`): relative, no `.` or `..` part, no backslash or
// NUL, and never into `.git`.

import * as z from "zod";

export function isRepoPath(p: string): boolean {
  return (
    !p.startsWith("/") &&
    !p.includes("\\") &&
    !p.includes("\0") &&
    p.split("/").every((part) => part !== "" && part !== "." && part !== "..") &&
    p.split("/")[0]?.toLowerCase() !== ".git"
  );
}

export const RepoPathSchema = (error: string) => z.string().min(1).refine(isRepoPath, { error });
