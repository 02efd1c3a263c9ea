// A released action's tree, built from this checkout once per test file: `npm run bundle`'s
// dist/cfa-worker.mjs (every dependency inside) beside package.json and prompts/, as a
// release tag of cfa-bot holds them and as action.yml runs them (`node dist/cfa-worker.mjs`).
// What runs is exactly what ships, built from the source under test, never a stale dist/.

import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, type BundleResult } from "../../../scripts/bundle.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface ReleaseTree {
  /** The tree's root (action.yml's folder). */
  dir: string;
  /** dist/cfa-worker.mjs in it. */
  worker: string;
  built: BundleResult;
  cleanup(): Promise<void>;
}

export async function makeReleaseTree(): Promise<ReleaseTree> {
  const dir = await mkdtemp(join(tmpdir(), "cfa-release-"));
  const built = await bundle(join(dir, "dist"));
  await cp(join(ROOT, "package.json"), join(dir, "package.json"));
  await cp(join(ROOT, "prompts"), join(dir, "prompts"), { recursive: true });
  await mkdir(join(dir, "work"));
  return {
    dir,
    worker: join(dir, "dist", "cfa-worker.mjs"),
    built,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
