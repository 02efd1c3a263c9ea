// Deterministic JSON: the same value always serialises to the same bytes (sorted keys,
// two-space indent, trailing newline), so records diff cleanly and hash stably.

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + "\n";
}

/** One line, no trailing newline: for JSON Lines logs. */
export function canonicalLine(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      // defineProperty, not assignment: `out["__proto__"] = x` would set out's prototype
      // and the key (present in parsed, untrusted JSON) would vanish from the output.
      if (inner !== undefined) {
        Object.defineProperty(out, key, {
          value: sortKeys(inner),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  }
  return value;
}
