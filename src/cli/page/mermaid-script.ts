// mermaid's minified browser bundle, from the installed package, for a job page to inline
// (no network: the page carries its own renderer). mermaid is an optional dependency
// (README, "The job page"): when it is absent the page shows each diagram's source. npm
// leaves an optional package out when its `engines` does not match the running Node
// (npm/arborist#37: unsupported optional nodes are failures, cleaned up), as it does here
// on Node 20 for mermaid 12 (Node >= 22.12).

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "../../skills/package-root.js";
import { shellWord } from "../resolve-repo.js";

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

/**
 * The one command that puts mermaid where cfa-bot finds it, wherever cfa-bot is installed (a
 * checkout, a project's node_modules, a global install): into cfa-bot's own node_modules,
 * which Node searches first when those files load `mermaid` (Node's module resolution,
 * https://nodejs.org/api/modules.html#loading-from-node_modules-folders), at the version its
 * package.json names, without touching any package.json (`--no-save`). mermaid 12 needs Node
 * 22.12 or later, which npm checks at install: an install made under an older Node left it out.
 */
export function mermaidFix(): string {
  const root = packageRoot();
  let version = "latest";
  try {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      optionalDependencies?: Record<string, string>;
    };
    version = manifest.optionalDependencies?.mermaid ?? version;
  } catch {
    // the version npm picks
  }
  return `npm install --prefix ${shellWord(root)} --no-save mermaid@${version}`;
}

/** Why the diagrams are shown as source, and the command that fixes it: one sentence. */
export function mermaidMissing(): string {
  return `the optional package mermaid is not installed beside cfa-bot, so the diagrams are shown as their Mermaid source; to draw them, run \`${mermaidFix()}\` (with Node 22.12 or later) and write the page again`;
}
