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
  const under = (prefix: string) =>
    components(prefix)
      .map(foldName)
      .every((part, index) => target[index] === part);
  // An entry starting with "!" is an exception, like a .gitignore negation: the engine
  // protects `.cfa/` but lets a phase's lead write that phase's artifact inside it.
  const exceptions = protect.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  if (exceptions.some(under)) return false;
  return protect.filter((p) => !p.startsWith("!")).some(under);
}
