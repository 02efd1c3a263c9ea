// Makes `rel`'s folders below `base`, each a real folder: a link or a file a command left in
// its private home where a mount point goes (`.npm` made a link into the worktree, say) is
// removed first, so the sandbox's bind lands where it is meant to, never where a link leads.

import { lstat, mkdir, rm } from "node:fs/promises";
import path from "node:path";

export async function mkdirNoLinks(base: string, rel: string): Promise<string> {
  let at = base;
  for (const part of rel.split("/")) {
    if (part === "" || part === "." || part === "..") {
      throw new Error(`cfa/sandbox: ${JSON.stringify(rel)} is not a relative folder path`);
    }
    at = path.join(at, part);
    const info = await lstat(at).catch(() => null);
    if (info?.isDirectory()) continue;
    if (info !== null) await rm(at, { force: true });
    await mkdir(at, { mode: 0o700 });
  }
  return at;
}
