// Protected prefixes are root-relative folders (or files) that an agent may read but not
// write; the engine protects `.cfa/` so agents cannot forge records. Compared folded, so
// `.CFA/` or an NFD spelling of a protected name is refused too.

import { foldName } from "./fold-name.js";

function components(relative: string): string[] {
  return relative.split("/").filter((part) => part !== "" && part !== ".");
}

/** `relative` is a root-relative, already resolved path with `/` separators. */
export function isProtected(relative: string, protect: readonly string[]): boolean {
  const target = components(relative).map(foldName);
  return protect.some((prefix) => {
    const wanted = components(prefix).map(foldName);
    return wanted.every((part, index) => target[index] === part);
  });
}
