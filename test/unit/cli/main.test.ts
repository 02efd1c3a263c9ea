// Usage errors and help for every command: exit 2 with a message naming the bad argument,
// `--help` printing the command's usage with exit 0. None of these touch a repository.

import { describe, expect, it } from "vitest";
import { cliName } from "../../../src/cli/command.js";
import { COMMANDS, main } from "../../../src/cli/main.js";
import { captureIo } from "../../support/cli/capture-io.js";

const VERBS = COMMANDS.map((c) => c.name);

describe("cfa", () => {
  it("without a command prints the overview to stderr and exits 2", async () => {
    const io = captureIo();
    expect(await main([], io)).toBe(2);
    expect(io.err()).toContain("Usage: cfa <command>");
    for (const verb of VERBS) expect(io.err()).toContain(`  ${verb}`);
  });

  it("--help lists every command and exits 0", async () => {
    const io = captureIo();
    expect(await main(["--help"], io)).toBe(0);
    for (const verb of VERBS) expect(io.out()).toContain(`  ${verb}`);
    expect(io.out()).toContain("cfa demo");
  });

  it("help <command> prints that command's usage", async () => {
    const io = captureIo();
    expect(await main(["help", "reject"], io)).toBe(0);
    expect(io.out()).toContain("Usage: cfa reject <N> --comment");
  });

  it("an unknown command is a usage error with a suggestion", async () => {
    const io = captureIo();
    expect(await main(["aprove", "1"], io)).toBe(2);
    expect(io.err()).toContain('cfa: unknown command "aprove"; did you mean "approve"?');
  });

  it.each(["--version", "-v", "-V", "version"])("%s prints the package version", async (flag) => {
    const io = captureIo();
    expect(await main([flag], io)).toBe(0);
    expect(io.out()).toMatch(/^cfa \d+\.\d+\.\d+\n$/);
  });

  it("help <unknown> is the unknown-command error, not the overview", async () => {
    const io = captureIo();
    expect(await main(["help", "aprove"], io)).toBe(2);
    expect(io.err()).toContain('cfa: unknown command "aprove"; did you mean "approve"?');
    expect(io.out()).toBe("");
  });

  it("suggests the demo the way the person runs cfa", async () => {
    const ways: [Record<string, string>, string][] = [
      // npx over a project's own install (node_modules/.bin), as after `npm install <tarball>`:
      // never `npx cfa-bot`, which the registry answers with 404 until a release.
      [{ npm_command: "exec", npm_package_name: "my-app" }, "npx cfa demo"],
      [{ npm_command: "run", npm_package_name: "cfa-bot" }, "npm run cfa -- demo"],
      [{ npm_command: "exec", npm_package_name: "cfa-bot" }, "npx cfa demo"],
      [{ npm_command: "run", npm_package_name: "my-app" }, "cfa demo"],
      [{}, "cfa demo"],
    ];
    for (const [env, demo] of ways) {
      const io = captureIo({ env });
      expect(await main(["--help"], io)).toBe(0);
      expect(io.out(), JSON.stringify(env)).toContain(`Start with \`${demo}\``);
    }
  });

  it("names the registry package only when npx ran it from its own cache", () => {
    const exec = { npm_command: "exec", npm_package_name: "my-app" };
    const cache = "/home/u/.npm/_npx/1f2e3d/node_modules/cfa-bot/bin/cfa.js";
    expect(cliName(exec, cache)).toBe("npx cfa-bot");
    expect(cliName(exec, "/home/u/app/node_modules/cfa-bot/bin/cfa.js")).toBe("npx cfa");
    expect(cliName({}, cache)).toBe("cfa"); // a global install or npm link
  });
});

describe.each(VERBS)("cfa %s", (verb) => {
  it("--help prints its usage and exits 0", async () => {
    const io = captureIo();
    expect(await main([verb, "--help"], io)).toBe(0);
    expect(io.out()).toContain(`Usage: cfa ${verb}`);
    expect(io.out()).toContain("--help");
    expect(io.err()).toBe("");
  });

  it("an unknown option is a usage error naming it", async () => {
    const io = captureIo();
    expect(await main([verb, "--frobnicate"], io)).toBe(2);
    expect(io.err()).toContain(`cfa ${verb}: unknown option --frobnicate`);
    expect(io.err()).toContain(`Run \`cfa ${verb} --help\` for usage.`);
  });
});

// Each command's own positional and option rules, checked before anything is read.
const CASES: [string[], string][] = [
  [["run"], "cfa run: missing <request>"],
  [["run", "  "], "cfa run: <request> is empty"],
  [["run", "add", "a flag"], 'cfa run: unexpected argument "a flag"'],
  [["run", "x", "--repo"], "cfa run: option --repo needs a value"],
  [["approve"], "cfa approve: missing <N>"],
  [["approve", "one"], 'cfa approve: <N> must be a job (issue) number such as 1, got "one"'],
  [["approve", "1", "2"], 'cfa approve: unexpected argument "2"'],
  [["reject", "1"], "cfa reject: --comment is required"],
  [["reject", "1", "--comment", " "], "cfa reject: --comment is required"],
  [["reject", "x", "--comment", "no"], "cfa reject: <N> must be a job (issue) number"],
  [["answer", "1"], "cfa answer: missing <text>"],
  [["answer", "1", "yes", "--id", "2"], "cfa answer: --id must be a question id such as q2"],
  [["answer", "1", ""], "cfa answer: <text> is empty"],
  [["withdraw"], "cfa withdraw: missing <N>"],
  [["withdraw", "1", "because", "extra"], 'cfa withdraw: unexpected argument "extra"'],
  [["intervene", "1"], "cfa intervene: missing <text>"],
  [["intervene", "0", "hi"], "cfa intervene: <N> must be a job (issue) number"],
  [["resume"], "cfa resume: missing <N>"],
  [["resume", "1", "now"], 'cfa resume: unexpected argument "now"'],
  [["watch"], "cfa watch: missing <N>"],
  [["watch", "1", "--interval", "soon"], "cfa watch: --interval must be a number of seconds"],
  [["watch", "1", "--interval", "0"], "cfa watch: --interval must be a number of seconds above 0"],
  [
    ["watch", "1", "--interval", "-1"],
    'cfa watch: option --interval needs a value, and the next word starts with a dash: write --interval="-…"',
  ],
  [
    ["reject", "1", "--comment", "--repo", "."],
    "cfa reject: option --comment needs a value, and the next word starts with a dash",
  ],
  [["watch", "1", "--follow=yes"], "cfa watch: option -f, --follow does not take a value"],
  [["inspect"], "cfa inspect: missing <N>"],
  [["inspect", "1", "--verbose"], "cfa inspect: unknown option --verbose"],
  [["replay"], "cfa replay: missing <file>"],
  [["replay", "a.json", "b.json"], 'cfa replay: unexpected argument "b.json"'],
  [["demo", "now"], 'cfa demo: unexpected argument "now" (this command takes none)'],
  [["demo", "--dir"], "cfa demo: option --dir needs a value"],
];

describe("usage errors name the bad argument", () => {
  it.each(CASES)("%j", async (argv, message) => {
    const io = captureIo({ env: { ANTHROPIC_API_KEY: "sk-ant-test-key-not-real" } });
    expect(await main(argv, io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe("");
  });
});
