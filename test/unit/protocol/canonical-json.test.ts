// Records and bus lines are compared and hashed by their bytes, so canonical JSON must
// give one serialisation per value and lose nothing JSON.stringify would keep.

import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalLine } from "../../../src/protocol/canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order, ends with a newline", () => {
    const a = { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } };
    const b = { a: { c: null, d: [3, { y: 2, z: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalLine(a)).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(a)).toBe(JSON.stringify(JSON.parse(canonicalLine(a)), null, 2) + "\n");
  });

  it("drops undefined properties as JSON.stringify does", () => {
    expect(canonicalLine({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it("keeps an own __proto__ key as data instead of losing it", () => {
    const value: unknown = JSON.parse('{"b":1,"__proto__":{"x":1}}');
    expect(canonicalLine(value)).toBe('{"__proto__":{"x":1},"b":1}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
