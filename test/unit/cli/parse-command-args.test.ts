import { describe, expect, it } from "vitest";
import {
  HELP_OPTION,
  parseCommandArgs,
  parseJobNumber,
  REPO_OPTION,
} from "../../../src/cli/parse-command-args.js";
import { UsageError } from "../../../src/cli/usage-error.js";

const OPTIONS = { ...HELP_OPTION, ...REPO_OPTION, verbose: { type: "boolean" } } as const;
const parse = (argv: string[]) =>
  parseCommandArgs("approve", argv, OPTIONS, { required: ["<N>"], optional: ["<reason>"] });

function usageError(argv: string[]): UsageError {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
}

describe("parseCommandArgs", () => {
  it("returns options and positionals", () => {
    const parsed = parse(["1", "--repo", "/tmp/x", "--verbose"]);
    expect(parsed?.positionals).toEqual(["1"]);
    expect(parsed?.values.repo).toBe("/tmp/x");
    expect(parsed?.values.verbose).toBe(true);
  });

  it("returns null for --help and -h, whatever else is wrong", () => {
    expect(parse(["--help"])).toBeNull();
    expect(parse(["-h", "1"])).toBeNull();
  });

  it("names an unknown option", () => {
    const e = usageError(["1", "--colour"]);
    expect(e.command).toBe("approve");
    expect(e.message).toBe("unknown option --colour");
  });

  it("names an option that needs a value", () => {
    expect(usageError(["1", "--repo"]).message).toBe("option --repo needs a value");
  });

  it("names a flag given a value", () => {
    expect(usageError(["1", "--verbose=yes"]).message).toBe(
      "option --verbose does not take a value",
    );
  });

  it("names the missing positional", () => {
    expect(usageError([]).message).toBe("missing <N>");
  });

  it("names the first extra positional and says to quote text", () => {
    const e = usageError(["1", "too", "many"]);
    expect(e.message).toContain('unexpected argument "many"');
    expect(e.message).toContain("quote");
  });
});

describe("parseJobNumber", () => {
  it("reads 3 and #3", () => {
    expect(parseJobNumber("watch", "3")).toBe(3);
    expect(parseJobNumber("watch", "#3")).toBe(3);
  });

  it.each(["0", "-1", "1.5", "one", "", "1e3", "99999999999"])("refuses %j", (text) => {
    expect(() => parseJobNumber("watch", text)).toThrow(UsageError);
    expect(() => parseJobNumber("watch", text)).toThrow(/<N> must be a job \(issue\) number/);
  });
});
