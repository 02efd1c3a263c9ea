// Egress by ecosystem through the real bwrap sandbox and the real proxy: with `network: [node]` a
// command reaches the (stand-in) npm registry over HTTP and through CONNECT, and everything else is
// refused — another host, a raw TCP connection, UDP and DNS, a loopback service of the host — with
// each refusal that reached the proxy in the result's `blocked` list, naming the command. With
// `network: false`, nothing.

import { describe, expect } from "vitest";
import type { Sandbox } from "../../../../src/ports/sandbox.js";
import type { NpmRegistry } from "../../../support/npm-registry/npm-registry.js";
import {
  egressSandbox,
  useEgressWorld,
  nodeScript,
  REGISTRY_HOST,
  runIn,
  tcpScript,
} from "../../../support/egress/egress-sandbox.js";

let ws: string;
let registry: NpmRegistry;
let sandbox: Sandbox;
const { bwrapPath, bit, skipped } = useEgressWorld(
  "cfa-egress-",
  (world) => ({ ws, registry, sandbox } = world),
);

/**
 * curl of `url` with NO_PROXY (which keeps the sandbox's own loopback direct) unset, so that
 * it asks the proxy.
 */
const curlThroughProxy = (url: string) => [
  "env",
  "-u",
  "NO_PROXY",
  "-u",
  "no_proxy",
  "curl",
  "-sS",
  url,
];

describe(`egress${skipped}`, () => {
  bit(
    "network: [node] reaches the registry over plain HTTP, by the absolute URI's host",
    async () => {
      const before = registry.requests.length;
      const result = await runIn(
        sandbox,
        ws,
        ["node"],
        ["curl", "-sS", `http://${REGISTRY_HOST}/left-pad`],
      );
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        name: "left-pad",
        "dist-tags": { latest: "1.3.0" },
      });
      expect(registry.requests.slice(before)).toEqual(["/left-pad"]);
      expect(result.blocked).toBeUndefined();
    },
  );

  bit("network: [node] reaches the registry through CONNECT (port 443)", async () => {
    const before = registry.requests.length;
    // --proxytunnel makes curl CONNECT even for http://; the stand-in speaks plain HTTP
    // inside the tunnel, which is all the proxy can see of a TLS session anyway.
    const result = await runIn(
      sandbox,
      ws,
      ["node"],
      ["curl", "-sS", "--proxytunnel", `http://${REGISTRY_HOST}:443/left-pad`],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('"left-pad"');
    expect(registry.requests.slice(before)).toEqual(["/left-pad"]);
  });

  bit(
    "another host is refused over HTTP and CONNECT, and both refusals are recorded with the command",
    async () => {
      const http = ["curl", "-sS", "http://example.com/x"];
      const plain = await runIn(sandbox, ws, ["node"], http);
      expect(plain.stdout).toContain("not on this role's network list");
      expect(plain.blocked).toEqual([
        {
          host: "example.com",
          port: 80,
          protocol: "http",
          reason: "not-allowed",
          command: http,
          count: 1,
        },
      ]);
      const tls = ["curl", "-sS", "https://example.com/"];
      const tunnelled = await runIn(sandbox, ws, ["node"], tls);
      expect(tunnelled.exitCode).not.toBe(0);
      expect(tunnelled.blocked).toEqual([
        {
          host: "example.com",
          port: 443,
          protocol: "https",
          reason: "not-allowed",
          command: tls,
          count: 1,
        },
      ]);
    },
  );

  bit(
    "a raw TCP connection goes nowhere: no route out, and through the proxy's port it is refused and recorded",
    async () => {
      // 192.0.2.1 is TEST-NET-1 (RFC 5737): never routed anywhere, and the sandbox has no route.
      const direct = await runIn(sandbox, ws, ["node"], nodeScript(tcpScript("192.0.2.1", 22)));
      expect(direct.stdout.trim()).toMatch(/^failed E(NETUNREACH|HOSTUNREACH|CONNREFUSED)$/);
      const viaProxy = await runIn(
        sandbox,
        ws,
        ["node"],
        nodeScript(tcpScript("127.0.0.1", 3128, "SSH-2.0-probe\r\n\r\n")),
      );
      expect(viaProxy.blocked).toEqual([
        expect.objectContaining({ host: "", port: 0, protocol: "tcp", reason: "protocol" }),
      ]);
    },
  );

  bit("UDP and DNS go nowhere", async () => {
    const result = await runIn(
      sandbox,
      ws,
      ["node"],
      nodeScript(`
const dgram = require("dgram"), dns = require("dns");
const s = dgram.createSocket("udp4");
s.send("x", 53, "192.0.2.1", (e) => {
  console.log("udp " + (e ? e.code : "sent"));
  dns.lookup("example.com", (e2) => { console.log("dns " + (e2 ? e2.code : "resolved")); process.exit(0); });
});`),
    );
    expect(result.stdout).toMatch(/^udp E(NETUNREACH|HOSTUNREACH)\ndns E\w+\n$/);
  });

  bit(
    "a loopback service of the host is not reachable, directly or through the proxy",
    async () => {
      const direct = await runIn(
        sandbox,
        ws,
        ["node"],
        nodeScript(tcpScript("127.0.0.1", registry.port)),
      );
      expect(direct.stdout.trim()).toBe("failed ECONNREFUSED");
      const argv = curlThroughProxy(`http://127.0.0.1:${registry.port}/left-pad`);
      const viaProxy = await runIn(sandbox, ws, ["node"], argv);
      expect(viaProxy.stdout, viaProxy.stderr).not.toContain("left-pad");
      expect(viaProxy.blocked).toEqual([
        {
          host: "127.0.0.1",
          port: registry.port,
          protocol: "http",
          reason: "not-allowed",
          command: argv,
          count: 1,
        },
      ]);
    },
  );

  bit(
    "a listed name that resolves to loopback is refused by address, with the real resolver",
    async () => {
      const real = egressSandbox(bwrapPath!);
      const argv = curlThroughProxy(`http://localhost:${registry.port}/left-pad`);
      // Set at the port (the config refuses localhost outright): the proxy's own check holds.
      const result = await real.run({
        argv,
        cwd: ws,
        env: { PATH: "/usr/bin:/bin" },
        timeoutMs: 30_000,
        maxOutputBytes: 65536,
        network: { hosts: [`localhost:${registry.port}`] },
      });
      expect(result.stdout).toContain("resolves to a loopback address");
      expect(result.blocked).toEqual([
        expect.objectContaining({ host: "localhost", port: registry.port, reason: "address" }),
      ]);
    },
  );

  bit("repeated refusals of one host are one record with a count", async () => {
    const argv = [
      "sh",
      "-c",
      "for i in 1 2 3; do curl -s http://example.com/ >/dev/null; done; true",
    ];
    const result = await runIn(sandbox, ws, ["node"], argv);
    expect(result.blocked).toEqual([expect.objectContaining({ host: "example.com", count: 3 })]);
  });

  bit("network: false reaches nothing: no proxy, no route, no record", async () => {
    const before = registry.requests.length;
    const viaPort = await runIn(sandbox, ws, false, [
      "curl",
      "-sS",
      "-x",
      "http://127.0.0.1:3128",
      `http://${REGISTRY_HOST}/left-pad`,
    ]);
    expect(viaPort.exitCode).not.toBe(0);
    const direct = await runIn(
      sandbox,
      ws,
      false,
      nodeScript(tcpScript("127.0.0.1", registry.port)),
    );
    expect(direct.stdout.trim()).toBe("failed ECONNREFUSED");
    const env = await runIn(sandbox, ws, false, ["sh", "-c", "env | grep -ic proxy || true"]);
    expect(env.stdout.trim()).toBe("0");
    expect(registry.requests.length).toBe(before);
    expect(viaPort.blocked).toBeUndefined();
  });
});
