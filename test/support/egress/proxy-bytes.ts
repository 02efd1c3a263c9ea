// Bytes a command might send straight to the egress proxy's port instead of an HTTP proxy
// request, built as the protocols lay them out: SOCKS4a
// (https://www.openssh.com/txt/socks4a.protocol), SOCKS5 with its request after the greeting
// (RFC 1928 §3, §4), and a TLS ClientHello with a server_name (RFC 8446 §4.1.2, RFC 6066 §3).

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

/** A SOCKS4a CONNECT to `host`:`port` (address 0.0.0.1, user id "u"). */
export function socks4a(host: string, port: number): Buffer {
  return Buffer.concat([
    Buffer.from([4, 1]),
    u16(port),
    Buffer.from([0, 0, 0, 1, 0x75, 0]),
    Buffer.from(`${host}\0`),
  ]);
}

/** A SOCKS5 greeting (no authentication) and a CONNECT to `host`:`port` by name. */
export function socks5(host: string, port: number): Buffer {
  const name = Buffer.from(host);
  return Buffer.concat([Buffer.from([5, 1, 0, 5, 1, 0, 3, name.length]), name, u16(port)]);
}

/** A TLS 1.2 ClientHello holding only a server_name extension for `name`. */
export function clientHello(name: string): Buffer {
  const host = Buffer.from(name);
  const list = Buffer.concat([Buffer.from([0]), u16(host.length), host]);
  const sni = Buffer.concat([u16(0), u16(list.length + 2), u16(list.length), list]);
  const body = Buffer.concat([
    Buffer.from([3, 3]),
    Buffer.alloc(32),
    Buffer.from([0]),
    u16(2),
    Buffer.from([0x13, 0x01]),
    Buffer.from([1, 0]),
    u16(sni.length),
    sni,
  ]);
  const handshake = Buffer.concat([Buffer.from([1, 0]), u16(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 3, 1]), u16(handshake.length), handshake]);
}
