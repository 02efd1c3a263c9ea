// What a request the proxy's HTTP parser rejected named, read from the bytes it sent (Node
// hands them to `clientError` as `err.rawPacket`, https://nodejs.org/api/http.html#event-
// clienterror): a refusal is then recorded under the host the command tried to reach, not
// as "tcp :0" — an agent cannot hide where it meant to go by sending bytes the parser
// refuses. Pure; reads at most the first KiB or so it is given, and names nothing it cannot
// read plainly.
//
// - an HTTP request line, however broken what follows (`CONNECT host:port`, an absolute
//   URI, or an origin form with a `Host:` header);
// - SOCKS4/4a (https://www.openssh.com/txt/socks4.protocol, socks4a.protocol): port and
//   address in the first 8 bytes, a 4a name after the user id;
// - SOCKS5 (RFC 1928 §4), when the request follows the greeting in the same bytes;
// - a TLS ClientHello sent straight to the proxy (RFC 8446 §4.1.2): its server_name
//   (RFC 6066 §3).

import { canonicalHost } from "./host-pattern.js";

export interface NamedTarget {
  host: string;
  /** 0 when the bytes name no port (a TLS server name). */
  port: number;
  protocol: "http" | "https" | "tcp";
}

const READ = 2048;
/** A DNS name's longest spelling (RFC 1035 §2.3.4), IPv6 literals well within it. */
const MAX_HOST = 253;

/** The host as recorded: canonical, bounded, anything a host name cannot hold shown as `?`. */
export function recordedHost(host: string): string {
  const name = canonicalHost(host).slice(0, MAX_HOST);
  return name.replace(/[^a-z0-9._:-]/gu, "?");
}

export function namedTarget(raw: Buffer | undefined): NamedTarget | null {
  if (raw === undefined || raw.length === 0) return null;
  const bytes = raw.subarray(0, READ);
  switch (bytes[0]) {
    case 0x04:
      return socks4(bytes);
    case 0x05:
      return socks5(bytes);
    case 0x16:
      return tlsServerName(bytes);
    default:
      return httpTarget(bytes);
  }
}

function target(host: string, port: number, protocol: NamedTarget["protocol"]): NamedTarget | null {
  const name = recordedHost(host);
  if (name === "" || !Number.isInteger(port) || port < 0 || port > 65535) return null;
  return { host: name, port, protocol };
}

function httpTarget(bytes: Buffer): NamedTarget | null {
  const text = bytes.toString("latin1");
  const lineEnd = text.search(/\r?\n/u);
  const line = lineEnd < 0 ? text : text.slice(0, lineEnd);
  const m = /^([A-Z]{3,10}) +(\S+)(?: +HTTP\/\d(?:\.\d)?)?\s*$/u.exec(line);
  if (m === null) return null;
  const [, method, requested = ""] = m;
  if (method === "CONNECT") {
    const authority = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]@]+):(\d{1,5})$/u.exec(requested);
    return authority ? target(authority[1] ?? "", Number(authority[2]), "https") : null;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//iu.test(requested)) {
    try {
      const url = new URL(requested);
      const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
      return target(url.hostname, port, "http");
    } catch {
      return null;
    }
  }
  // Origin form: the Host header names it, if the bytes hold one.
  const header = /\r?\nhost:[ \t]*([^\r\n]*)/iu.exec(text);
  if (header === null) return null;
  const value = (header[1] ?? "").trim();
  const port = /:(\d{1,5})$/u.exec(value);
  return target(
    port ? value.slice(0, -port[0].length) : value,
    port ? Number(port[1]) : 80,
    "http",
  );
}

function socks4(bytes: Buffer): NamedTarget | null {
  if (bytes.length < 9 || (bytes[1] !== 1 && bytes[1] !== 2)) return null;
  const port = bytes.readUInt16BE(2);
  const ip = [...bytes.subarray(4, 8)];
  const userEnd = bytes.indexOf(0, 8);
  // SOCKS4a: 0.0.0.x (x ≠ 0) says a name follows the user id.
  if (ip[0] === 0 && ip[1] === 0 && ip[2] === 0 && ip[3] !== 0 && userEnd > 0) {
    const nameEnd = bytes.indexOf(0, userEnd + 1);
    const name = bytes.subarray(userEnd + 1, nameEnd < 0 ? bytes.length : nameEnd);
    return target(name.toString("latin1"), port, "tcp");
  }
  return target(ip.join("."), port, "tcp");
}

function socks5(bytes: Buffer): NamedTarget | null {
  // Greeting: VER NMETHODS METHODS…; then the request: VER CMD RSV ATYP DST.ADDR DST.PORT.
  const methods = bytes[1];
  if (methods === undefined) return null;
  const at = 2 + methods;
  if (bytes.length < at + 4 || bytes[at] !== 5) return null;
  const type = bytes[at + 3];
  let host: string;
  let next: number;
  if (type === 1) {
    host = [...bytes.subarray(at + 4, at + 8)].join(".");
    next = at + 8;
  } else if (type === 3) {
    const length = bytes[at + 4] ?? 0;
    host = bytes.subarray(at + 5, at + 5 + length).toString("latin1");
    next = at + 5 + length;
  } else if (type === 4) {
    const words: string[] = [];
    for (let k = 0; k < 16; k += 2) words.push(bytes.readUInt16BE(at + 4 + k).toString(16));
    host = words.join(":");
    next = at + 20;
  } else return null;
  if (bytes.length < next + 2) return null;
  return target(host, bytes.readUInt16BE(next), "tcp");
}

function tlsServerName(bytes: Buffer): NamedTarget | null {
  // TLSPlaintext header (5) · Handshake header (4) · version (2) · random (32).
  let at = 5;
  if (bytes.length < at + 4 || bytes[at] !== 0x01) return null;
  at += 4 + 2 + 32;
  const skip = (lengthBytes: 1 | 2): boolean => {
    if (at + lengthBytes > bytes.length) return false;
    const length = lengthBytes === 1 ? bytes[at]! : bytes.readUInt16BE(at);
    at += lengthBytes + length;
    return at <= bytes.length;
  };
  if (!skip(1) || !skip(2) || !skip(1)) return null; // session id, cipher suites, compression
  if (at + 2 > bytes.length) return null;
  const end = Math.min(bytes.length, at + 2 + bytes.readUInt16BE(at));
  at += 2;
  while (at + 4 <= end) {
    const type = bytes.readUInt16BE(at);
    const length = bytes.readUInt16BE(at + 2);
    at += 4;
    if (type === 0 && at + 5 <= end && bytes[at + 2] === 0) {
      // server_name_list (2) · name_type host_name (1) · HostName (2 + n)
      const nameLength = bytes.readUInt16BE(at + 3);
      const name = bytes.subarray(at + 5, Math.min(end, at + 5 + nameLength));
      return target(name.toString("latin1"), 0, "tcp");
    }
    at += length;
  }
  return null;
}
