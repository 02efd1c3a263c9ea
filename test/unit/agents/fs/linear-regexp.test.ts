import { describe, expect, it } from "vitest";
import { compileLinear, LinearPatternError } from "../../../../src/agents/fs/index.js";

const reason = (pattern: string): string => {
  try {
    compileLinear(pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(LinearPatternError);
    return (error as Error).message;
  }
  throw new Error(`${pattern} compiled`);
};

describe("compileLinear: RE2 syntax, with a clear word for what it lacks", () => {
  it("matches like a JavaScript RegExp for the common syntax", () => {
    const re = compileLinear("^(\\w+)\\s*=\\s*\\d{2,}$");
    expect(re.test("port = 8080")).toBe(true);
    expect(re.test("port = 8")).toBe(false);
    expect(compileLinear("hello", { ignoreCase: true }).test("HeLLo world")).toBe(true);
  });

  it("accepts JavaScript's \\uXXXX and \\u{…} escapes, not an escaped backslash before u", () => {
    expect(compileLinear("caf\\u00e9").test("café")).toBe(true);
    expect(compileLinear("\\u{1F600}").test("😀")).toBe(true);
    expect(compileLinear("a\\\\u0041").test("a\\u0041")).toBe(true);
  });

  it.each([
    ["(a)\\1", /^backreferences \(\\1, \\k<name>\) are not supported: .*RE2/],
    ["(?<n>a)\\k<n>", /^backreferences/],
    ["a(?=b)", /^lookahead .* not supported/],
    ["a(?!b)", /^lookahead .* not supported/],
    ["(?<=a)b", /^lookbehind .* not supported/],
    ["(?<!a)b", /^lookbehind .* not supported/],
    ["a{2000}", /^not a valid RE2 regular expression: invalid repeat count/],
    ["[", /^not a valid RE2 regular expression: missing closing \]/],
  ])("refuses %j: %s", (pattern, message) => {
    expect(reason(pattern)).toMatch(message);
  });
});
