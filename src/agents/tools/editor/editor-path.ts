// A path the model gave the editor, as a path of the workspace: relative to its root, or
// absolute inside it (Claude often writes absolute paths, e.g. from `pwd`). Anything else is
// refused here; the boundary check (src/agents/boundary) judges the rest — `..`, links, `.git`.

import path from "node:path";

export function editorPath(root: string, given: string): { path: string } | { refused: string } {
  if (!path.isAbsolute(given)) return { path: given.replace(/^\.\/+/, "") || "." };
  const normal = path.normalize(given);
  if (normal === root) return { path: "." };
  if (normal.startsWith(`${root}/`)) return { path: normal.slice(root.length + 1) };
  return {
    refused: `The path ${given} is outside your workspace (${root}); give a path relative to the workspace root, or an absolute one inside it.`,
  };
}
