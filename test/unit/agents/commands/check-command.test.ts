import { describe, expect, it } from "vitest";
import { checkCommand } from "../../../../src/agents/commands/check-command.js";
import { CommandRefusedError } from "../../../../src/agents/commands/errors.js";

const ALLOWED = ["git", "node", "npm", "npx", "ls", "cat", "grep"];

describe("checkCommand: a role's allowlist of bare program names", () => {
  it.each([
    [["git", "status"]],
    [["npm", "test"]],
    [["ls"]],
    [["grep", "-rn", "TODO", "."]],
    // arguments are the program's business, including paths and dots
    [["cat", "../../etc/passwd"]],
  ])("allows %j", (argv) => {
    expect(checkCommand(argv, ALLOWED)).toBe(argv[0]);
  });

  it.each([
    [[], "empty"],
    [[""], "empty"],
    [["  "], "empty"],
    [["rm", "-rf", "."], "not-allowed"],
    [["bash", "-c", "git status"], "not-allowed"],
    [["Git"], "not-allowed"],
    [["git "], "not-allowed"],
    [["/usr/bin/git", "status"], "not-bare"],
    [["./git"], "not-bare"],
    [["bin/git"], "not-bare"],
    [["..", "x"], "not-bare"],
    [["..git"], "not-bare"],
    [["git\\x"], "not-bare"],
    [["-git"], "not-bare"],
    [["git", "log", "a\0b"], "invalid-argument"],
  ] as const)("refuses %j (%s)", (argv, reason) => {
    let caught: unknown;
    try {
      checkCommand(argv, ALLOWED);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CommandRefusedError);
    const refused = caught as CommandRefusedError;
    expect(refused.name).toBe("CommandRefusedError");
    expect(refused.reason).toBe(reason);
    expect(refused.message).toMatch(/^cfa\/commands: /);
  });

  it("names the allowed commands in the refusal, so the agent can pick one", () => {
    expect(() => checkCommand(["rm", "x"], ALLOWED)).toThrow(
      'cfa/commands: "rm" is not an allowed command; allowed commands for this role: git, node, npm, npx, ls, cat, grep',
    );
  });

  it("asks for a bare name when given a path to an allowed program", () => {
    expect(() => checkCommand(["/usr/bin/git"], ALLOWED)).toThrow(/without a path/);
  });

  it("says so when the role may run nothing", () => {
    expect(() => checkCommand(["ls"], [])).toThrow(/this role may not run any command/);
  });

  it("does not accept an allowlist entry that is a path", () => {
    // the entry can never match, because argv[0] may not contain "/"
    expect(() => checkCommand(["/bin/ls"], ["/bin/ls"])).toThrow(CommandRefusedError);
  });
});
