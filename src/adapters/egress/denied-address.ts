// Addresses an allowed host name may never lead to: whoever controls a permitted name's DNS
// decides what it resolves to, and a name pointed at the runner's loopback, a link-local
// address (the cloud's instance metadata at 169.254.169.254 among them) or one of the
// runner's own interfaces would reach the host's services through the proxy. The classes
// follow @anthropic-ai/sandbox-runtime's resolved-address guard
// (src/sandbox/resolved-address-guard.ts in anthropics/sandbox-runtime). Private ranges
// (10/8, 172.16/12, 192.168/16, fc00::/7) stay reachable: a self-hosted runner's own
// registry mirror lives there, and only names on the list can lead to them.

import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";

const CLASSES: readonly { why: string; v4: readonly string[]; v6: readonly string[] }[] = [
  { why: "a loopback address", v4: ["127.0.0.0/8"], v6: ["::1/128"] },
  { why: "an unspecified address", v4: ["0.0.0.0/8"], v6: ["::/128"] },
  { why: "a link-local address", v4: ["169.254.0.0/16"], v6: ["fe80::/10"] },
  { why: "a multicast address", v4: ["224.0.0.0/4", "255.255.255.255/32"], v6: ["ff00::/8"] },
  {
    why: "a cloud metadata address",
    v4: ["100.100.100.200/32", "168.63.129.16/32", "192.0.0.192/32"],
    v6: ["fd00:ec2::/32", "fd20:ce::254/128"],
  },
];

function blockListOf(ranges: { v4: readonly string[]; v6: readonly string[] }): BlockList {
  const list = new BlockList();
  for (const range of ranges.v4) {
    const [net, prefix] = range.split("/") as [string, string];
    list.addSubnet(net, Number(prefix), "ipv4");
  }
  for (const range of ranges.v6) {
    const [net, prefix] = range.split("/") as [string, string];
    list.addSubnet(net, Number(prefix), "ipv6");
  }
  return list;
}

const LISTS = CLASSES.map((c) => ({ why: c.why, list: blockListOf(c) }));

/** An IPv4 address carried in an IPv6 one (::ffff:127.0.0.1), or null. */
function embeddedV4(address: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? (m[1] ?? null) : null;
}

function ownAddresses(): Set<string> {
  try {
    return new Set(
      Object.values(networkInterfaces())
        .flat()
        .flatMap((i) => (i ? [i.address.toLowerCase()] : [])),
    );
  } catch {
    return new Set();
  }
}

/** Why `address` may not be dialled, or null when it may. */
export function deniedAddressReason(
  address: string,
  own: ReadonlySet<string> = ownAddresses(),
): string | null {
  const v4 = embeddedV4(address);
  const plain = v4 ?? address;
  const family = isIP(plain);
  if (family === 0) return "an unparsable address";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const { why, list } of LISTS) if (list.check(plain, type)) return why;
  if (own.has(plain.toLowerCase())) return "one of this runner's own addresses";
  return null;
}
