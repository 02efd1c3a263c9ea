// What is outside a workspace, byte for byte: every adversarial class ends by proving that
// nothing there was created, changed or removed.

import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

/** path → kind and content (files), link target (links); folders by their listing. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    const stats = lstatSync(at);
    const relative = path.relative(dir, at) || ".";
    if (stats.isSymbolicLink()) out.set(relative, `link:${readlinkSync(at)}`);
    else if (stats.isDirectory()) {
      const names = readdirSync(at).sort();
      out.set(relative, `dir:${names.join("/")}`);
      for (const name of names) walk(path.join(at, name));
    } else if (stats.isFile()) out.set(relative, `file:${readFileSync(at, "base64")}`);
    else out.set(relative, "other");
  };
  walk(dir);
  return out;
}
