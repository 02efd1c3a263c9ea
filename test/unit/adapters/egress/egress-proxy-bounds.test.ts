// The egress proxy's share per command and for the whole process (egress-proxy.ts,
// connection-budget.ts), over a real Unix socket in a temp folder, no sandbox.

import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectionBudget,
  openFilesLimit,
  startEgressProxy,
  type EgressProxy,
} from "../../../../src/adapters/egress/index.js";
import { removeDir, tempDir } from "../../../support/git/temp-repo.js";

let dir: string;
let proxy: EgressProxy | undefined;
const clients: Socket[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await proxy?.close();
  proxy = undefined;
  removeDir(dir);
});

async function start(
  limits: Parameters<typeof startEgressProxy>[0]["limits"],
  budget = connectionBudget(1000),
): Promise<EgressProxy> {
  dir = tempDir("cfa-proxy-bounds-");
  proxy = await startEgressProxy({
    socketPath: path.join(dir, "proxy.sock"),
    hosts: ["registry.npmjs.org"],
    command: ["npm", "ci"],
    limits,
    budget,
  });
  return proxy;
}

/** A client that connected and sent half a request line; resolves once it is closed. */
function halfSent(socketPath: string): { connected: Promise<void>; closed: Promise<void> } {
  const s = connect({ path: socketPath });
  clients.push(s);
  s.on("error", () => {});
  return {
    connected: new Promise((resolve) =>
      s.once("connect", () => (s.write("CONNECT regis"), resolve())),
    ),
    closed: new Promise((resolve) => s.once("close", () => resolve())),
  };
}

/** Until the proxy has taken `n` connections (accept is asynchronous). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe("the egress proxy's bounds", () => {
  it("past `pending` connections still sending their head, a new one is cut and recorded", async () => {
    const p = await start({ connections: 100, pending: 3, headerTimeoutMs: 60_000 });
    const socket = path.join(dir, "proxy.sock");
    const kept = [halfSent(socket), halfSent(socket), halfSent(socket)];
    await Promise.all(kept.map((k) => k.connected));
    await until(() => p.open === 3);
    const cut = halfSent(socket);
    await cut.closed;
    expect(p.open).toBe(3);
    expect(p.blocked()).toEqual([
      { host: "", port: 0, protocol: "tcp", reason: "limit", command: ["npm", "ci"], count: 1 },
    ]);
  });

  it("past `connections` open, a new one is cut and recorded", async () => {
    const p = await start({ connections: 2, pending: 100, headerTimeoutMs: 60_000 });
    const socket = path.join(dir, "proxy.sock");
    await Promise.all([halfSent(socket).connected, halfSent(socket).connected]);
    await until(() => p.open === 2);
    await halfSent(socket).closed;
    expect(p.blocked().map((b) => [b.reason, b.count])).toEqual([["limit", 1]]);
  });

  it("a head not sent within headerTimeoutMs is cut and recorded", async () => {
    const p = await start({ connections: 10, pending: 10, headerTimeoutMs: 50 });
    const slow = halfSent(path.join(dir, "proxy.sock"));
    await slow.closed;
    expect(p.blocked().map((b) => b.reason)).toEqual(["limit"]);
    await until(() => p.open === 0);
  });

  it("a connection silent both ways for idleTimeoutMs is closed", async () => {
    const p = await start({
      connections: 10,
      pending: 10,
      headerTimeoutMs: 60_000,
      idleTimeoutMs: 50,
    });
    const s = connect({ path: path.join(dir, "proxy.sock") });
    clients.push(s);
    await new Promise<void>((resolve) => s.once("close", () => resolve()));
    await until(() => p.open === 0);
  });

  it("the process's budget is shared: one proxy that spent it leaves another none, and gets it back", async () => {
    const budget = connectionBudget(2);
    const p = await start({ connections: 10, pending: 10, headerTimeoutMs: 60_000 }, budget);
    const socket = path.join(dir, "proxy.sock");
    const two = [halfSent(socket), halfSent(socket)];
    await Promise.all(two.map((t) => t.connected));
    await until(() => budget.held === 2);
    await halfSent(socket).closed;
    expect(p.blocked()[0]?.reason).toBe("limit");
    for (const c of clients.splice(0)) c.destroy();
    await until(() => budget.held === 0);
  });

  it("the budget's size comes from the process's open-files limit", () => {
    expect(openFilesLimit()).toBeGreaterThan(0);
    expect(openFilesLimit(path.join("/nonexistent", "limits"))).toBeNull();
  });
});
