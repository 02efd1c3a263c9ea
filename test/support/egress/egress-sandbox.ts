// Shared setup for the egress tests: a real bwrap sandbox whose egress proxy maps the npm
// registry's name to a stand-in served on 127.0.0.1 (test/support/npm-registry), so no test
// resolves a name or leaves the machine. The map lives in the proxy, on the host side,
// never in the sandbox: a command sees registry.npmjs.org as it would on a runner.

import { mkdir, rm } from "node:fs/promises";
import { afterAll, beforeAll } from "vitest";
import path from "node:path";
import type { ResolveUpstream } from "../../../src/adapters/egress/index.js";
import { createBwrapSandbox } from "../../../src/adapters/sandbox/bwrap-sandbox.js";
import { egressFor } from "../../../src/config/egress.js";
import type { NetworkSetting } from "../../../src/config/network-setting.js";
import type { CommandResult, Sandbox } from "../../../src/ports/sandbox.js";
import { startNpmRegistry, type NpmRegistry } from "../npm-registry/npm-registry.js";
import { bwrapSuite, fixtureRoot, type BwrapSuite } from "../sandbox/sandbox-fixtures.js";
import { SANDBOX_NODE } from "../sandbox/sandbox-node.js";

export const REGISTRY_HOST = "registry.npmjs.org";
export const SYSTEM_PATH = `${path.dirname(SANDBOX_NODE)}:/usr/local/bin:/usr/bin:/bin`;

/** Maps `registry.npmjs.org` (ports 80 and 443) to the stand-in; every other name fails to resolve. */
export function mapRegistry(port: number): ResolveUpstream {
  return async (host) => {
    if (host === REGISTRY_HOST) return { address: "127.0.0.1", port };
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  };
}

export function egressSandbox(bwrapPath: string, resolve?: ResolveUpstream): Sandbox {
  return createBwrapSandbox({
    bwrapPath,
    ...(resolve ? { resolveUpstream: resolve } : {}),
    toolchains: { folders: [], hiddenFiles: [], binFolders: [], env: {} },
  });
}

export async function workspace(root: string, name: string): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

export function runIn(
  sandbox: Sandbox,
  cwd: string,
  network: NetworkSetting,
  argv: string[],
  extra: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return sandbox.run({
    argv,
    cwd,
    env: { PATH: SYSTEM_PATH, HOME: cwd, ...extra.env },
    timeoutMs: extra.timeoutMs ?? 30_000,
    maxOutputBytes: 1 << 20,
    network: egressFor(network),
  });
}

/** `node -e <script>` by the node the sandbox shows. */
export function nodeScript(script: string): string[] {
  return [SANDBOX_NODE, "-e", script];
}

/** A node script: a raw TCP connection, printing `connected` or `failed <code>`. */
export function tcpScript(host: string, port: number, send = ""): string {
  return `const s = require("net").connect({ host: ${JSON.stringify(host)}, port: ${port} });
s.on("connect", () => { console.log("connected"); ${send ? `s.write(${JSON.stringify(send)}); s.on("data", (d) => { console.log(String(d).split("\\r\\n")[0]); process.exit(0); }); s.on("close", () => process.exit(0));` : "process.exit(0);"} });
s.on("error", (e) => { console.log("failed " + e.code); process.exit(3); });
setTimeout(() => { console.log("failed timeout"); process.exit(4); }, 5000);`;
}

export interface EgressWorld {
  root: string;
  /** A workspace folder below the root. */
  ws: string;
  /** The stand-in registry, serving left-pad 1.3.0. */
  registry: NpmRegistry;
  /** A bwrap sandbox whose proxy sends the registry's name to the stand-in. */
  sandbox: Sandbox;
}

/**
 * For the file's tests: before them a fixture root named `prefix…`, its workspace, the
 * stand-in registry and the sandbox, handed to `use`; after them, the registry closed and
 * the root removed. Returns the file's bwrapSuite: without bubblewrap nothing is made and
 * its tests (`bit`) skip, visibly.
 */
export function useEgressWorld(prefix: string, use: (world: EgressWorld) => void): BwrapSuite {
  const suite = bwrapSuite();
  const { bwrapPath } = suite;
  let world: EgressWorld | undefined;
  beforeAll(async () => {
    if (bwrapPath === null) return;
    const root = await fixtureRoot(prefix);
    const registry = await startNpmRegistry([{ name: "left-pad", version: "1.3.0" }], {
      host: REGISTRY_HOST,
    });
    world = {
      root,
      ws: await workspace(root, "ws"),
      registry,
      sandbox: egressSandbox(bwrapPath, mapRegistry(registry.port)),
    };
    use(world);
  });
  afterAll(async () => {
    if (world === undefined) return;
    await world.registry.close();
    await rm(world.root, { recursive: true, force: true });
  });
  return suite;
}
