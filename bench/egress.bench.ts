// What the agents' egress and setup cost, each as a ratio against a floor measured in the same run:
// - the egress proxy: a 4 MiB tarball fetched through it (its Unix socket, as the sandbox's
//   bridge reaches it) against the same fetch straight from the server;
// - `npm ci` in a fresh workspace with a warm shared cache, inside the sandbox with
//   `network: [node]` (bwrap, the bridge, the proxy) against the same `npm ci` outside it.
//   Both run offline from the cache (npm_config_offline), so neither can reach a registry.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { startEgressProxy } from "../src/adapters/egress/index.js";
import { createBwrapSandbox } from "../src/adapters/sandbox/bwrap-sandbox.js";
import { findProgram } from "../src/adapters/sandbox/find-program.js";
import {
  projectFiles,
  startNpmRegistry,
  type PackageSpec,
} from "../test/support/npm-registry/npm-registry.js";
import { median, type BenchResult } from "./bench-result.js";

const exec = promisify(execFile);
const HOST = "registry.npmjs.org";
const RUNS = 15;
const NPM_RUNS = 5;

function get(options: http.RequestOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(bytes));
    });
    req.on("error", reject);
    req.end();
  });
}

async function proxyCost(): Promise<BenchResult> {
  const body = Buffer.alloc(4 * 1024 * 1024, 7);
  const server = http.createServer((_req, res) => res.end(body));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const dir = await mkdtemp(path.join(os.tmpdir(), "cfa-bench-egress-"));
  const proxy = await startEgressProxy({
    socketPath: path.join(dir, "proxy.sock"),
    hosts: [HOST],
    command: ["bench"],
    resolve: async () => ({ address: "127.0.0.1", port }),
  });
  const direct = () => get({ host: "127.0.0.1", port, path: "/pkg/-/pkg-1.0.0.tgz", agent: false });
  const proxied = () =>
    get({
      socketPath: path.join(dir, "proxy.sock"),
      path: `http://${HOST}/pkg/-/pkg-1.0.0.tgz`,
      headers: { host: HOST },
      agent: false,
    });
  const time = async (f: () => Promise<number>) => {
    await f();
    const out: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await f();
      out.push(performance.now() - start);
    }
    return median(out);
  };
  const floor = await time(direct);
  const through = await time(proxied);
  await proxy.close();
  server.close();
  await rm(dir, { recursive: true, force: true });
  return {
    name: "egress proxy: 4 MiB tarball through it / direct",
    unit: "ratio",
    median: through / floor,
    runs: RUNS,
    extra: { proxiedMs: through, directMs: floor },
  };
}

const PACKAGES: PackageSpec[] = Array.from({ length: 20 }, (_, i) => ({
  name: `bench-dep-${i}`,
  version: "1.0.0",
  files: { "index.js": `module.exports = ${i};\n`, "README.md": "x".repeat(20_000) },
}));

async function npmCi(): Promise<BenchResult | null> {
  const bwrap = await findProgram("bwrap", process.env.PATH ?? "");
  const npm = ["/usr/bin/npm", "/usr/local/bin/npm"].find((p) => existsSync(p));
  if (bwrap === null || npm === undefined) return null;
  const registry = await startNpmRegistry(PACKAGES, { host: HOST });
  const root = await mkdtemp(path.join("/var/tmp", "cfa-bench-npm-"));
  const cache = path.join(root, "cache");
  await mkdir(cache);
  const systemPath = `${path.dirname(npm)}:/usr/bin:/bin`;
  const env = (cwd: string) => ({
    PATH: systemPath,
    HOME: cwd,
    npm_config_registry: `http://${HOST}/`,
    npm_config_cache: cache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  });
  let n = 0;
  const fresh = async () => {
    const dir = path.join(root, `ws-${n++}`);
    await mkdir(dir);
    for (const [file, text] of Object.entries(projectFiles(registry, HOST, PACKAGES))) {
      await writeFile(path.join(dir, file), text);
    }
    return dir;
  };
  const sandbox = createBwrapSandbox({
    bwrapPath: bwrap,
    resolveUpstream: async () => ({ address: "127.0.0.1", port: registry.port }),
  });
  // Warm the cache once, online through the proxy.
  const warm = await sandbox.run({
    argv: ["npm", "ci"],
    cwd: await fresh(),
    env: env(root),
    timeoutMs: 300_000,
    maxOutputBytes: 1 << 20,
    network: { hosts: [HOST] },
    caches: [{ tool: "npm", path: cache }],
  });
  if (warm.exitCode !== 0) throw new Error(`npm ci (warming) failed: ${warm.stderr}`);
  const inside: number[] = [];
  const outside: number[] = [];
  for (let i = 0; i < NPM_RUNS; i++) {
    const a = await fresh();
    let start = performance.now();
    const result = await sandbox.run({
      argv: ["npm", "ci", "--offline"],
      cwd: a,
      env: env(a),
      timeoutMs: 300_000,
      maxOutputBytes: 1 << 20,
      network: { hosts: [HOST] },
      caches: [{ tool: "npm", path: cache }],
    });
    inside.push(performance.now() - start);
    if (result.exitCode !== 0) throw new Error(`npm ci in the sandbox failed: ${result.stderr}`);
    const b = await fresh();
    start = performance.now();
    await exec(npm, ["ci", "--offline"], { cwd: b, env: env(b) });
    outside.push(performance.now() - start);
  }
  await registry.close();
  await rm(root, { recursive: true, force: true });
  const sandboxed = median(inside);
  const plain = median(outside);
  return {
    name: "npm ci, fresh workspace, warm shared cache: sandbox / outside",
    unit: "ratio",
    median: sandboxed / plain,
    runs: NPM_RUNS,
    extra: { sandboxMs: sandboxed, outsideMs: plain, packages: PACKAGES.length, target: "<=1.3" },
  };
}

export async function run(): Promise<BenchResult[]> {
  const results = [await proxyCost()];
  const npm = await npmCi();
  if (npm) results.push(npm);
  return results;
}
