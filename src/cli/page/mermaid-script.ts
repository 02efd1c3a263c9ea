// mermaid's minified browser bundle, from the installed package, for a job page to inline
// (no network: the page carries its own renderer). mermaid is an optional dependency
// (README, "The job page"): when it is absent the page shows each diagram's source. npm
// leaves an optional package out when its `engines` does not match the running Node
// (npm/arborist#37: unsupported optional nodes are failures, cleaned up), as it does here
// on Node 20 for mermaid 12 (Node >= 22.12).

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** What the page inlines: the bundle, safe inside a <script> element; or null when absent. */
export async function mermaidScript(): Promise<string | null> {
  let path: string;
  try {
    path = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");
  } catch {
    return null;
  }
  return inlineScript(await readFile(path, "utf8"));
}

/**
 * JavaScript made safe to sit inside <script>…</script>: the HTML parser ends a script at
 * `</script` and changes state at `<!--` and `<script` (HTML's "script data" states), so
 * their `<` is written `\x3C`, which means `<` in every place such text can occur in code
 * (a string, a template, a regular expression, a comment).
 */
export function inlineScript(code: string): string {
  return code.replace(/<(?=\/script|!--|script)/gi, "\\x3C");
}
