// Which workspaces have been set up with which setup configuration: a small file per
// workspace in the job's area (outside every worktree, where no command can write), tied to
// the worktree folder's identity — a worktree re-created (a new runner, a folder removed) is
// a new workspace and is set up again.

import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SetupConfig } from "../../config/index.js";

export function setupDigest(setup: SetupConfig): string {
  return createHash("sha256")
    .update(JSON.stringify([setup.commands, setup.network, setup.timeoutSeconds]))
    .digest("hex")
    .slice(0, 16);
}

const markerPath = (area: string, name: string) => join(area, "setup", `${name}.json`);

async function identity(root: string): Promise<string> {
  const st = await stat(root, { bigint: true });
  return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
}

export async function isSetUp(
  area: string,
  name: string,
  root: string,
  digest: string,
): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(markerPath(area, name), "utf8")) as {
      digest?: unknown;
      tree?: unknown;
    };
    return marker.digest === digest && marker.tree === (await identity(root));
  } catch {
    return false;
  }
}

export async function markSetUp(
  area: string,
  name: string,
  root: string,
  digest: string,
): Promise<void> {
  await mkdir(join(area, "setup"), { recursive: true });
  await writeFile(markerPath(area, name), JSON.stringify({ digest, tree: await identity(root) }));
}
