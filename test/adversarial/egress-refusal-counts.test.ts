// Every refusal is counted, always (docs/sandbox.md: every refusal is shown to the person). An
// agent with `network: [node]` first makes 150 junk refusals, each to another host, then the
// request that matters; or it sends bytes the proxy's HTTP parser refuses, naming where it meant to
// go. The proxy's list of kinds is bounded (100), the job's too (50): past either, the kind seen
// least recently makes room and its count moves to an "others" line that never stops counting, so
// the newest request stays listed and nothing goes uncounted; a refusal the parser made names what
// the bytes named. Positive controls: the former proxy kept the first 100 kinds and recorded
// nothing after them, and recorded every parser refusal as `tcp :0` with no host.

import http from "node:http";
import net from "node:net";
import path from "node:path";
import tls from "node:tls";
import { describe, expect } from "vitest";
import { newJobRecord } from "../../src/protocol/job-record.js";
import { initialEngineState } from "../../src/records/engine-state.js";
import { BLOCKED_KEPT, evolveRecords, type JobRecords } from "../../src/records/record-changes.js";
import type { BlockedRequest, CommandResult, Sandbox } from "../../src/ports/sandbox.js";
import { cases } from "../support/adversarial/count.js";
import { renderStatus } from "../support/comments/status-fixture.js";
import { nodeScript, runIn, useEgressWorld } from "../support/egress/egress-sandbox.js";
import { socks4a, socks5 } from "../support/egress/proxy-bytes.js";
import { removeDir, tempDir } from "../support/git/temp-repo.js";

let ws: string;
let sandbox: Sandbox;
const { bit, skipped } = useEgressWorld("cfa-egress-counts-", (world) => ({ ws, sandbox } = world));

/** A node script sending each payload (latin1) on its own connection to the bridge, in turn. */
const sendEach = (payloads: readonly string[]) =>
  nodeScript(`const net = require("net");
const payloads = ${JSON.stringify(payloads)};
const next = (i) => {
  if (i === payloads.length) return process.exit(0);
  const s = net.connect({ host: "127.0.0.1", port: 3128 });
  s.on("connect", () => s.write(Buffer.from(payloads[i], "latin1")));
  s.on("data", () => s.destroy());
  s.on("error", () => {});
  s.on("close", () => next(i + 1));
};
next(0);`);

const connect = (host: string) => `CONNECT ${host}:443 HTTP/1.1\r\n\r\n`;
const JUNK = Array.from({ length: 150 }, (_, i) => connect(`junk${i}.example`));

/** Bytes the HTTP parser refuses, and what each named. */
const PARSER_REFUSED: readonly [string, string, Partial<BlockedRequest>][] = [
  [
    "a CONNECT with a NUL in a header",
    "CONNECT nul.example:8443 HTTP/1.1\r\nX: a\u0000b\r\n\r\n",
    { host: "nul.example", port: 8443, protocol: "https" },
  ],
  [
    "an absolute URI with both Content-Length and Transfer-Encoding",
    "POST http://smuggle.example/ HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    { host: "smuggle.example", port: 80, protocol: "http" },
  ],
  [
    "SOCKS4a naming a host",
    socks4a("socks4.example", 443).toString("latin1"),
    { host: "socks4.example", port: 443, protocol: "tcp" },
  ],
  [
    "SOCKS5 naming a host with its greeting",
    socks5("socks5.example", 22).toString("latin1"),
    { host: "socks5.example", port: 22, protocol: "tcp" },
  ],
  [
    "TLS sent straight to the proxy's port",
    "__TLS__",
    { host: "sni.example", port: 0, protocol: "tcp" },
  ],
  [
    "a WebSocket upgrade to another host",
    "GET http://ws.example/socket HTTP/1.1\r\nHost: ws.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    { host: "ws.example", port: 80, protocol: "http" },
  ],
];

const total = (blocked: readonly BlockedRequest[] | undefined) =>
  (blocked ?? []).reduce((n, b) => n + b.count, 0);

/** The former proxy's bookkeeping: the first 100 kinds, the rest not recorded at all. */
function formerRecord(requests: readonly { host: string }[]): { host: string; count: number }[] {
  const kinds = new Map<string, { host: string; count: number }>();
  for (const r of requests) {
    const seen = kinds.get(r.host);
    if (seen) seen.count += 1;
    else if (kinds.size < 100) kinds.set(r.host, { host: r.host, count: 1 });
  }
  return [...kinds.values()];
}

let junkFirst: CommandResult;

describe(
  cases(`every refusal counted, parser refusals named${skipped}`, 2 + PARSER_REFUSED.length + 1),
  () => {
    bit("150 junk refusals, then the one that matters: it is listed, all 151 counted", async () => {
      junkFirst = await runIn(sandbox, ws, ["node"], sendEach([...JUNK, connect("exfil.example")]));
      const listed = junkFirst.blocked ?? [];
      expect(listed.length).toBeLessThanOrEqual(101);
      expect(listed).toContainEqual(
        expect.objectContaining({ host: "exfil.example", reason: "not-allowed", count: 1 }),
      );
      expect(listed.at(-1)).toMatchObject({ host: "*", reason: "not-allowed" });
      expect(total(listed)).toBe(151);
    });

    bit("the one that matters, then 150 junk refusals: it is counted under others", async () => {
      const result = await runIn(
        sandbox,
        ws,
        ["node"],
        sendEach([connect("exfil.example"), ...JUNK]),
      );
      expect(total(result.blocked)).toBe(151);
      expect(result.blocked?.at(-1)).toMatchObject({ host: "*", count: 51 });
    });

    bit.each(PARSER_REFUSED)("%s: recorded under what it named", async (_what, bytes, named) => {
      const argv =
        bytes === "__TLS__"
          ? [
              "curl",
              "-sS",
              "--noproxy",
              "*",
              "--max-time",
              "5",
              "--resolve",
              "sni.example:3128:127.0.0.1",
              "https://sni.example:3128/",
            ]
          : sendEach([bytes]);
      const result = await runIn(sandbox, ws, ["node"], argv);
      expect(result.blocked).toEqual([
        expect.objectContaining({ ...named, reason: "protocol", count: 1 }),
      ]);
    });

    bit(
      "on the job's records: the newest kinds listed past 50, every refusal counted, the one that matters shown",
      () => {
        let records: JobRecords = {
          job: newJobRecord({ job: 7, title: "t", at: "2026-01-01T00:00:00Z" }),
          engine: initialEngineState("mona"),
        };
        const at = (i: number) => `2026-01-01T00:${String(i).padStart(2, "0")}:00Z`;
        const blocked = junkFirst.blocked ?? [];
        // One command's refusals at a time, in the order the proxy listed them (oldest first).
        blocked.forEach((b, i) => {
          records = evolveRecords(records, {
            type: "requests-blocked",
            by: "worker@dispatch:api",
            at: at(Math.min(59, Math.floor(i / 2))),
            blocked: [{ ...b, command: b.command.join(" ") }],
          });
        });
        const kept = records.engine.blocked!;
        expect(kept.entries).toHaveLength(BLOCKED_KEPT);
        expect(kept.entries.reduce((n, e) => n + e.count, 0) + kept.dropped).toBe(151);
        expect(kept.entries.map((e) => e.host)).toContain("exfil.example");
        expect(renderStatus(records.engine)).toContain("exfil.example");
      },
    );

    bit("positive control: the former proxy kept 100 kinds and lost the rest", () => {
      const requests = [
        ...JUNK.map((_, i) => ({ host: `junk${i}.example` })),
        { host: "exfil.example" },
      ];
      const former = formerRecord(requests);
      expect(former.map((k) => k.host)).not.toContain("exfil.example");
      expect(former.reduce((n, k) => n + k.count, 0)).toBe(100);
    });

    bit(
      "positive control: each of those bytes but the upgrade is an HTTP parser error, which the former proxy recorded as `tcp :0`",
      async () => {
        const dir = tempDir("cfa-parser-errors-");
        const socketPath = path.join(dir, "s.sock");
        const codes: string[] = [];
        const server = http.createServer();
        server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
          codes.push(String(error.code));
          socket.destroy();
        });
        await new Promise<void>((resolve) => server.listen(socketPath, resolve));
        try {
          for (const [, bytes] of PARSER_REFUSED.filter(([what]) => !what.includes("upgrade"))) {
            await new Promise<void>((resolve) => {
              const done = () => resolve();
              if (bytes === "__TLS__") {
                const t = tls.connect({ path: socketPath, servername: "sni.example" });
                t.on("error", done);
                t.on("close", done);
                return;
              }
              const s = net.connect({ path: socketPath }, () =>
                s.write(Buffer.from(bytes, "latin1")),
              );
              s.on("error", done);
              s.on("close", done);
            });
          }
        } finally {
          server.close();
          removeDir(dir);
        }
        expect(codes).toHaveLength(PARSER_REFUSED.length - 1);
        expect(codes.every((c) => c.startsWith("HPE_"))).toBe(true);
      },
    );
  },
);
