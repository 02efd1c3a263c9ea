import { describe, expect, it } from "vitest";
import { namedTarget, OTHER_HOSTS, RefusalLog } from "../../../../src/adapters/egress/index.js";
import { clientHello, socks4a, socks5 } from "../../../support/egress/proxy-bytes.js";

describe("RefusalLog", () => {
  it("counts identical refusals as one kind", () => {
    const log = new RefusalLog(["curl"], 10);
    log.record("a.example", 443, "https", "not-allowed");
    log.record("a.example", 443, "https", "not-allowed");
    expect(log.entries()).toEqual([
      {
        host: "a.example",
        port: 443,
        protocol: "https",
        reason: "not-allowed",
        command: ["curl"],
        count: 2,
      },
    ]);
  });

  it("past its bound keeps the newest kinds and counts the rest under `*` by reason", () => {
    const log = new RefusalLog(["curl"], 3);
    for (let i = 0; i < 100; i += 1) log.record(`junk${i}.example`, 443, "https", "not-allowed");
    log.record("exfil.example", 443, "https", "not-allowed");
    const entries = log.entries();
    expect(entries.map((e) => e.host)).toEqual([
      "junk98.example",
      "junk99.example",
      "exfil.example",
      OTHER_HOSTS,
    ]);
    expect(entries.at(-1)).toMatchObject({ reason: "not-allowed", count: 98 });
    expect(log.total).toBe(101);
  });

  it("a kind seen again is the newest: it is the last to make room", () => {
    const log = new RefusalLog([], 2);
    log.record("keep.example", 80, "http", "not-allowed");
    log.record("b.example", 80, "http", "not-allowed");
    log.record("keep.example", 80, "http", "not-allowed");
    log.record("c.example", 80, "http", "address");
    expect(log.entries().map((e) => `${e.host} ${e.count}`)).toEqual([
      "keep.example 2",
      "c.example 1",
      "* 1",
    ]);
  });
});

describe("namedTarget: what bytes the HTTP parser refused named", () => {
  it.each([
    [
      "a CONNECT with a broken header",
      "CONNECT exfil.example:8443 HTTP/1.1\r\nX: a\u0000b\r\n\r\n",
      { host: "exfil.example", port: 8443, protocol: "https" },
    ],
    [
      "an absolute URI with a bad header",
      "GET http://bad.example/x HTTP/1.1\r\nX\u0001: y\r\n\r\n",
      { host: "bad.example", port: 80, protocol: "http" },
    ],
    [
      "an origin form with Host",
      "POST /up HTTP/1.1\r\nHost: drop.example:81\r\nContent-Length: x\r\n\r\n",
      { host: "drop.example", port: 81, protocol: "http" },
    ],
    [
      "a name with characters no host name holds",
      "CONNECT ev\u202eil.example:443 HTTP/1.1\r\n\r\n",
      { host: "ev???il.example", port: 443, protocol: "https" },
    ],
  ])("%s", (_name, text, expected) => {
    expect(namedTarget(Buffer.from(text, "utf8"))).toEqual(expected);
  });

  it("SOCKS4 and 4a", () => {
    expect(namedTarget(Buffer.from([4, 1, 0, 22, 10, 0, 0, 9, 0]))).toEqual({
      host: "10.0.0.9",
      port: 22,
      protocol: "tcp",
    });
    expect(namedTarget(socks4a("socks.example", 443))).toEqual({
      host: "socks.example",
      port: 443,
      protocol: "tcp",
    });
  });

  it("SOCKS5 with its request in the same bytes, and its greeting alone", () => {
    expect(namedTarget(socks5("five.example", 443))).toEqual({
      host: "five.example",
      port: 443,
      protocol: "tcp",
    });
    expect(namedTarget(Buffer.from([5, 1, 0]))).toBeNull();
  });

  it("a TLS ClientHello's server name", () => {
    expect(namedTarget(clientHello("sni.example"))).toEqual({
      host: "sni.example",
      port: 0,
      protocol: "tcp",
    });
    expect(namedTarget(clientHello("sni.example").subarray(0, 20))).toBeNull();
  });

  it("bytes that name nothing", () => {
    expect(namedTarget(Buffer.from("\u0000\u0001garbage"))).toBeNull();
    expect(namedTarget(undefined)).toBeNull();
  });
});
