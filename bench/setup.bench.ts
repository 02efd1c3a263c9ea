// Setup's cost, measured through the engine's own path: a workspace's setup (`setup:
// [npm ci]` from .github/cfa.yml, run by runSetup in the sandbox with setup's network — the
// detected `node` ecosystem through the egress proxy — and the job's shared npm cache) in a
// fresh task worktree with the cache warm, against the same `npm ci` with the same cache
// outside the sandbox, in the same run. Both run offline from the cache (`offline=true` in
// the project's .npmrc), so neither can reach a registry; the cache is warmed once through
// the proxy from a stand-in registry. Target: at most 1.3×.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { createBwrapSandbox } from "../src/adapters/sandbox/bwrap-sandbox.js";
import { findProgram } from "../src/adapters/sandbox/find-program.js";
import { createScriptedModel } from "../src/adapters/scripted/index.js";
import { wireLocal } from "../src/cli/wiring.js";
import { parseConfig } from "../src/config/index.js";
import { openSession } from "../src/engine/job/session.js";
import { runSetup } from "../src/engine/setup/run-setup.js";
import {
  projectFiles,
  startNpmRegistry,
  type PackageSpec,
} from "../test/support/npm-registry/npm-registry.js";
import { median, type BenchResult } from "./bench-result.js";

const exec = promisify(execFile);
const HOST = "registry.npmjs.org";
const RUNS = 7;
const SETUP = "npm ci --no-audit --no-fund";

const PACKAGES: PackageSpec[] = Array.from({ length: 20 }, (_, i) => ({
  name: `bench-dep-${i}`,
  version: "1.0.0",
  files: { "index.js": `module.exports = ${i};\n`, "README.md": "x".repeat(20_000) },
}));

const git = (cwd: string, ...args: string[]) => exec("git", args, { cwd });

async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

async function setupCost(): Promise<BenchResult | null> {
  const bwrap = await findProgram("bwrap", process.env.PATH ?? "");
  const npm = ["/usr/bin/npm", "/usr/local/bin/npm"].find((p) => existsSync(p));
  if (bwrap === null || npm === undefined) return null;
  const registry = await startNpmRegistry(PACKAGES, { host: HOST });
  const root = await mkdtemp(path.join("/var/tmp", "cfa-bench-setup-"));
  try {
    return await measure(registry, root, npm, bwrap);
  } finally {
    await registry.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function measure(
  registry: Awaited<ReturnType<typeof startNpmRegistry>>,
  root: string,
  npm: string,
  bwrap: string,
): Promise<BenchResult> {
  const repoDir = path.join(root, "repo");
  const workRoot = path.join(root, "work");
  const config = `setup: [${JSON.stringify(SETUP)}]\n`;
  const files: Record<string, string> = {
    ...projectFiles(registry, HOST, PACKAGES),
    ".npmrc": `registry=http://${HOST}/\noffline=true\nupdate-notifier=false\n`,
    ".github/cfa.yml": config,
  };
  await writeTree(repoDir, files);
  await git(repoDir, "init", "--quiet", "--initial-branch=main");
  await git(repoDir, "add", "-A");
  await git(
    repoDir,
    "-c",
    "user.name=b",
    "-c",
    "user.email=b@example.com",
    "commit",
    "-qm",
    "init",
  );

  const systemPath = `${path.dirname(npm)}:/usr/bin:/bin`;
  const sandbox = createBwrapSandbox({
    bwrapPath: bwrap,
    hidePaths: [workRoot],
    resolveUpstream: async () => ({ address: "127.0.0.1", port: registry.port }),
  });
  const { deps, forge } = await wireLocal({
    repoDir,
    workRoot,
    model: createScriptedModel({ version: 1, instances: {} }),
    env: { PATH: systemPath },
  });
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error("bench: bad config");
  await forge.openIssue({ title: "bench", body: "", labels: ["cfa"] });
  const s = await openSession(1, { ...deps, sandbox: async () => sandbox }, parsed.config);
  const cache = path.join(s.area, "caches", "npm");
  await mkdir(cache, { recursive: true });

  // Warm the job's shared cache once, online through the proxy.
  const warmDir = path.join(root, "warm");
  await writeTree(warmDir, files);
  const warm = await sandbox.run({
    argv: ["npm", "ci", "--offline=false", "--no-audit", "--no-fund"],
    cwd: warmDir,
    env: { PATH: systemPath, HOME: warmDir },
    timeoutMs: 300_000,
    maxOutputBytes: 1 << 20,
    network: { hosts: [HOST] },
    caches: [{ tool: "npm", path: cache }],
  });
  if (warm.exitCode !== 0) throw new Error(`bench: npm ci (warming) failed: ${warm.stderr}`);

  const inside: number[] = [];
  const outside: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ws = await s.workspaces.create({
      name: `task-b${i}`,
      branch: `cfa/1-b${i}`,
      from: "main",
    });
    const plain = path.join(root, `plain-${i}`);
    await writeTree(plain, files);
    // Alternated, so neither side always runs right after the other on a shared machine.
    const engineRun = async () => {
      const start = performance.now();
      const outcome = await runSetup(s, ws, `bench ${i}`);
      inside.push(performance.now() - start);
      if (outcome.failed !== null) throw new Error(`bench: setup failed: ${outcome.failed.tail}`);
    };
    const plainRun = async () => {
      const start = performance.now();
      await exec("sh", ["-c", SETUP], {
        cwd: plain,
        env: { PATH: systemPath, HOME: plain, npm_config_cache: cache },
      });
      outside.push(performance.now() - start);
    };
    if (i % 2 === 0) {
      await engineRun();
      await plainRun();
    } else {
      await plainRun();
      await engineRun();
    }
  }
  const engine = median(inside);
  const bare = median(outside);
  return {
    name: "setup (npm ci) in a fresh task worktree, warm shared cache: engine / outside",
    unit: "ratio",
    median: engine / bare,
    runs: RUNS,
    extra: { engineMs: engine, outsideMs: bare, packages: PACKAGES.length, target: "<=1.3" },
  };
}

export async function run(): Promise<BenchResult[]> {
  const result = await setupCost();
  return result === null ? [] : [result];
}
