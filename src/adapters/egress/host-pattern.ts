// Matching a requested host and port against a role's host patterns (src/ports/sandbox.ts
// NetworkAccess): `name` is that name only, `*.suffix` any name under suffix (not suffix
// itself), each on ports 80 and 443 unless the pattern names its own port.

const DEFAULT_PORTS = [80, 443];

/** Lowercase, without a trailing dot or IPv6 brackets: one spelling per name. */
export function canonicalHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  while (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

interface Pattern {
  wildcard: boolean;
  name: string;
  ports: readonly number[];
}

function parsePattern(pattern: string): Pattern {
  const text = pattern.trim().toLowerCase();
  const colon = text.lastIndexOf(":");
  const hasPort = colon > 0 && /^\d+$/.test(text.slice(colon + 1));
  const host = hasPort ? text.slice(0, colon) : text;
  const ports = hasPort ? [Number(text.slice(colon + 1))] : DEFAULT_PORTS;
  const wildcard = host.startsWith("*.");
  return { wildcard, name: canonicalHost(wildcard ? host.slice(2) : host), ports };
}

/** A matcher over the patterns, parsed once. */
export function hostMatcher(patterns: readonly string[]): (host: string, port: number) => boolean {
  const parsed = patterns.map(parsePattern);
  return (host, port) => {
    const name = canonicalHost(host);
    if (name === "") return false;
    return parsed.some(
      (p) => p.ports.includes(port) && (p.wildcard ? name.endsWith(`.${p.name}`) : name === p.name),
    );
  };
}
