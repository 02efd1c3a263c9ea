// `npm ci` of a real-shaped project inside the sandbox, with `network: [node]` and a shared npm
// cache outside the workspace (so each new workspace's install is quick): it installs from the
// stand-in registry through the egress proxy, and a second install in a fresh workspace with the
// warm cache asks the registry for less (counted on the registry's side).

import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { Sandbox } from "../../../../src/ports/sandbox.js";
import {
  projectFiles,
  startNpmRegistry,
  type NpmRegistry,
  TINY_PACKAGES,
} from "../../../support/npm-registry/npm-registry.js";
import {
  bwrapSuite,
  bwrapWithNpm,
  fixtureRoot,
} from "../../../support/sandbox/sandbox-fixtures.js";
import {
  egressSandbox,
  mapRegistry,
  REGISTRY_HOST,
  SYSTEM_PATH,
  workspace,
} from "../../../support/egress/egress-sandbox.js";

const { bwrapPath, bit, skipped } = bwrapSuite(bwrapWithNpm(), "needs bwrap and a system npm");
const skip = bwrapPath === null;

let root: string;
let cache: string;
let registry: NpmRegistry;
let sandbox: Sandbox;

async function project(name: string): Promise<string> {
  const dir = await workspace(root, name);
  for (const [file, text] of Object.entries(projectFiles(registry, REGISTRY_HOST, TINY_PACKAGES))) {
    await writeFile(path.join(dir, file), text);
  }
  await writeFile(
    path.join(dir, "test.js"),
    'const add = require("tiny-add"), mul = require("tiny-mul");\nif (add(2, 3) !== 5 || mul(2, 3) !== 6) process.exit(1);\nconsole.log("ok");\n',
  );
  return dir;
}

function npm(cwd: string, args: string[]) {
  return sandbox.run({
    argv: ["npm", ...args],
    cwd,
    env: {
      PATH: SYSTEM_PATH,
      HOME: cwd,
      npm_config_registry: `http://${REGISTRY_HOST}/`,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    },
    timeoutMs: 120_000,
    maxOutputBytes: 1 << 20,
    network: { hosts: [REGISTRY_HOST] },
    caches: [{ tool: "npm", path: cache }],
  });
}

beforeAll(async () => {
  if (skip) return;
  root = await fixtureRoot("cfa-npm-ci-");
  cache = path.join(root, "shared-cache", "npm");
  await mkdir(cache, { recursive: true });
  registry = await startNpmRegistry(TINY_PACKAGES, { host: REGISTRY_HOST });
  sandbox = egressSandbox(bwrapPath!, mapRegistry(registry.port));
});
afterAll(async () => {
  if (skip) return;
  await registry.close();
  await rm(root, { recursive: true, force: true });
});

describe(`npm ci in the sandbox${skipped}`, () => {
  bit(
    "installs through the proxy into the workspace, and a fresh workspace's install is served from the shared cache",
    async () => {
      const first = await project("ws-1");
      const cold = await npm(first, ["ci"]);
      expect(cold.exitCode, cold.stderr).toBe(0);
      expect(cold.blocked).toBeUndefined();
      const coldRequests = registry.requests.length;
      expect(coldRequests).toBe(TINY_PACKAGES.length);
      // The cache is outside the workspace: nothing of npm's own lands in the worktree.
      expect(existsSync(path.join(first, ".npm"))).toBe(false);
      expect(
        (await readFile(path.join(first, "node_modules/tiny-add/index.js"), "utf8")).length,
      ).toBeGreaterThan(0);
      const tested = await sandbox.run({
        argv: ["npm", "test"],
        cwd: first,
        env: { PATH: SYSTEM_PATH, HOME: first },
        timeoutMs: 60_000,
        maxOutputBytes: 1 << 16,
        network: false,
      });
      expect(tested.exitCode, tested.stderr).toBe(0);
      expect(tested.stdout).toContain("ok");

      const second = await project("ws-2");
      const warm = await npm(second, ["ci"]);
      expect(warm.exitCode, warm.stderr).toBe(0);
      const warmRequests = registry.requests.length - coldRequests;
      expect(warmRequests, `cold ${coldRequests}, warm ${warmRequests}`).toBeLessThan(coldRequests);
      // With a lockfile npm ci fetches only the tarballs (2 here), and with the cache warm none.
      expect(warmRequests).toBe(0);
      expect(existsSync(path.join(second, "node_modules/tiny-mul/index.js"))).toBe(true);
    },
  );
});
