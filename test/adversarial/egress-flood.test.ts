// A command with `network: [node]` floods its egress proxy: six processes open 4,000
// connections each to the proxy's socket, send half a request line and hold them (24,000,
// the attack that took the engine to 19,984 of its 20,000 descriptors). The proxy runs in the
// engine's process; each command may hold 128 connections of it, 32 of them still sending
// their head, for at most 10 s; all proxies together an eighth of the process's open-files
// limit (connection-budget.ts). Meanwhile the engine's own git runs, a record is written and
// committed, and another workspace's command — one through its own proxy, one without network
// — runs: all succeed, and the engine's descriptors stay within the bound. Sandboxed
// processes get RLIMIT_NOFILE (4,096 by default). Positive control: the same flood (3,000
// connections, well inside this process's limit) against a proxy whose bounds are lifted
// holds every connection it opens in the engine's process.

import { readdirSync } from "node:fs";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect } from "vitest";
import { connectionBudget } from "../../src/adapters/egress/index.js";
import { createBwrapSandbox } from "../../src/adapters/sandbox/bwrap-sandbox.js";
import { JobRepo } from "../../src/engine/tree/job-repo.js";
import { writeText } from "../../src/engine/tree/files.js";
import { egressFor } from "../../src/config/egress.js";
import { gitClient } from "../../src/git/git-client.js";
import {
  DEFAULT_COMMAND_LIMITS,
  type CommandResult,
  type Sandbox,
} from "../../src/ports/sandbox.js";
import { cases } from "../support/adversarial/count.js";
import {
  mapRegistry,
  REGISTRY_HOST,
  runIn,
  SYSTEM_PATH,
  useEgressWorld,
  workspace,
} from "../support/egress/egress-sandbox.js";
import type { NpmRegistry } from "../support/npm-registry/npm-registry.js";
import { SANDBOX_NODE } from "../support/sandbox/sandbox-node.js";
import { makeTempRepo } from "../support/git/temp-repo.js";

let root: string;
let registry: NpmRegistry;
let sandbox: Sandbox;
const { bit, skipped, bwrapPath } = useEgressWorld(
  "cfa-egress-flood-",
  (world) => ({ root, registry, sandbox } = world),
);

const SOCKET = "/run/cfa-egress/proxy.sock";

/**
 * The flood: `processes` children each open `each` connections to the proxy's socket, write
 * half a CONNECT line on each that connects and hold them; when every attempt has connected
 * or failed the parent writes `ready` (with the counts), and ends once `stop` appears.
 */
const FLOOD = `"use strict";
const net = require("node:net");
const fs = require("node:fs");
const { fork } = require("node:child_process");
const [role, arg1, arg2] = process.argv.slice(2);
if (role === "child") {
  const each = Number(arg1);
  let done = 0, connected = 0, failed = 0;
  const held = [];
  const settle = () => { done += 1; if (done === each) process.send({ connected, failed }); };
  // A connect refused before it is queued (EAGAIN: the socket's backlog is full) is tried
  // again, as an attacker would; one the proxy accepts and cuts counts as connected.
  const open = (tries) => {
    const s = net.connect({ path: ${JSON.stringify(SOCKET)} });
    let connectedHere = false;
    s.on("connect", () => {
      connectedHere = true; connected += 1; s.write("CONNECT regis"); held.push(s); settle();
    });
    s.on("error", () => {
      if (connectedHere) return;
      if (tries < 500) setTimeout(() => open(tries + 1), 5);
      else { failed += 1; settle(); }
    });
  };
  for (let i = 0; i < each; i += 1) open(0);
  setInterval(() => {}, 1 << 30);
} else {
  const processes = Number(arg1), each = Number(arg2);
  let reported = 0, connected = 0, failed = 0;
  for (let p = 0; p < processes; p += 1) {
    const child = fork(__filename, ["child", String(each)]);
    child.on("message", (m) => {
      connected += m.connected; failed += m.failed; reported += 1;
      if (reported === processes) fs.writeFileSync("ready", JSON.stringify({ connected, failed }));
    });
  }
  // Ends (and with it the sandbox and every child) when the test writes \`stop\`.
  setInterval(() => { if (fs.existsSync("stop")) process.exit(0); }, 20);
}
`;

/** This process's open descriptors: the engine's, the proxies' among them. */
const engineFds = () => readdirSync("/proc/self/fd").length;

interface Flood {
  result: Promise<CommandResult>;
  ready: { connected: number; failed: number };
  stop(): Promise<CommandResult>;
}

async function startFlood(
  on: Sandbox,
  ws: string,
  processes: number,
  each: number,
): Promise<Flood> {
  await writeFile(path.join(ws, "flood.cjs"), FLOOD);
  await rm(path.join(ws, "ready"), { force: true });
  await rm(path.join(ws, "stop"), { force: true });
  const result = on.run({
    argv: [SANDBOX_NODE, "flood.cjs", "parent", String(processes), String(each)],
    cwd: ws,
    env: { PATH: SYSTEM_PATH, HOME: ws },
    timeoutMs: 600_000,
    maxOutputBytes: 1 << 20,
    network: egressFor(["node"]),
  });
  // Until the flood says every attempt settled (or the command ended early, which fails below).
  let ended = false;
  void result.finally(() => (ended = true));
  let text: string | null = null;
  while (text === null && !ended) {
    text = await readFile(path.join(ws, "ready"), "utf8").catch(() => null);
    if (text === null) await new Promise((r) => setTimeout(r, 50));
  }
  if (text === null) throw new Error(`the flood ended early: ${JSON.stringify(await result)}`);
  return {
    result,
    ready: JSON.parse(text) as Flood["ready"],
    stop: async () => {
      await writeFile(path.join(ws, "stop"), "");
      return result;
    },
  };
}

describe(cases(`a command flooding its egress proxy${skipped}`, 24_000, "connections"), () => {
  bit(
    "the engine keeps its descriptors: its git, a record write and other workspaces' commands work meanwhile",
    async () => {
      const repo = makeTempRepo({ prefix: "cfa-flood-repo-" });
      try {
        const before = engineFds();
        const flooder = await workspace(root, "flooder");
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, engineFds())), 2);
        const flood = await startFlood(sandbox, flooder, 6, 4000);
        const during = engineFds();
        // The engine's own work, while the flood holds what it could.
        const ops: Record<string, boolean> = {};
        const git = gitClient(repo.repo);
        ops["the engine's git"] = /^[0-9a-f]{40}$/.test(
          (await git.raw(["rev-parse", "HEAD"])).trim(),
        );
        const jobRepo = new JobRepo(repo.repo);
        await writeText(repo.repo, ".cfa/jobs/1/state.json", '{"v":1}\n');
        ops["a record written and committed"] =
          (await jobRepo.commit("records", [".cfa/jobs/1/state.json"])) !== null;
        const other = await workspace(root, "other");
        const fetched = await runIn(
          sandbox,
          other,
          ["node"],
          ["curl", "-sS", "--max-time", "20", `http://${REGISTRY_HOST}/left-pad`],
        );
        ops["another workspace's command through its own proxy"] =
          fetched.exitCode === 0 && fetched.stdout.includes('"left-pad"');
        const offline = await runIn(sandbox, other, false, ["sh", "-c", "echo ok > out.txt"]);
        ops["another workspace's command without network"] =
          offline.exitCode === 0 && (await stat(path.join(other, "out.txt"))).isFile();
        const after = engineFds();
        clearInterval(sampler);
        const result = await flood.stop();
        const limit = (result.blocked ?? []).find((b) => b.reason === "limit");
        // The numbers the report quotes.
        console.log(
          `flood: ${flood.ready.connected} connected, ${flood.ready.failed} failed of 24,000; engine fds ${before} before, ${during} during, peak ${peak}, ${after} after the engine's work; refused at the limit: ${limit?.count ?? 0}; operations: ${Object.values(ops).filter(Boolean).length}/${Object.keys(ops).length}`,
        );
        expect(ops).toEqual({
          "the engine's git": true,
          "a record written and committed": true,
          "another workspace's command through its own proxy": true,
          "another workspace's command without network": true,
        });
        // 128 connections and their upstreams at most, plus the engine's own work.
        expect(peak - before).toBeLessThan(2 * DEFAULT_COMMAND_LIMITS.connections + 64);
        expect(limit?.host).toBe("");
        expect(limit?.count ?? 0).toBeGreaterThan(20_000);
      } finally {
        repo.cleanup();
      }
    },
  );

  bit(
    "a sandboxed process holds at most openFiles descriptors (RLIMIT_NOFILE, soft and hard)",
    async () => {
      const ws = await workspace(root, "nofile");
      const limits = await runIn(sandbox, ws, false, ["sh", "-c", "ulimit -Sn; ulimit -Hn"]);
      expect(limits.stdout.trim().split("\n")).toEqual([
        String(DEFAULT_COMMAND_LIMITS.openFiles),
        String(DEFAULT_COMMAND_LIMITS.openFiles),
      ]);
      // Outside, this process's own limit is another (the engine's).
      expect(DEFAULT_COMMAND_LIMITS.openFiles).not.toBe(
        Number(/Max open files\s+(\d+)/.exec(await readFile("/proc/self/limits", "utf8"))?.[1]),
      );
    },
  );

  bit(
    "positive control: with the bounds lifted, the engine holds every connection the flood opens",
    async () => {
      const unbounded = createBwrapSandbox({
        bwrapPath: bwrapPath!,
        resolveUpstream: mapRegistry(registry.port),
        toolchains: { folders: [], hiddenFiles: [], binFolders: [], env: {} },
        egress: {
          limits: { connections: 1e9, pending: 1e9, headerTimeoutMs: 600_000 },
          budget: connectionBudget(1e9),
        },
      });
      const ws = await workspace(root, "unbounded");
      const before = engineFds();
      const flood = await startFlood(unbounded, ws, 3, 1000);
      const held = engineFds() - before;
      await flood.stop();
      expect(flood.ready.connected).toBe(3000);
      expect(held).toBeGreaterThanOrEqual(2900);
    },
  );
});
