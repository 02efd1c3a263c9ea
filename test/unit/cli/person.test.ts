import { describe, expect, it } from "vitest";
import { loginFrom } from "../../../src/cli/person.js";

describe("loginFrom", () => {
  it.each([
    ["Ana", "ana"],
    ["Ana López", "ana-lopez"],
    ["  dev_ops.bot ", "dev-ops-bot"],
    ["渡辺", null],
    ["", null],
  ])("%j → %j", (name, login) => {
    expect(loginFrom(name)).toBe(login);
  });

  it("keeps a login within GitHub's 39 characters, without a trailing dash", () => {
    const login = loginFrom(`${"a".repeat(38)} b`)!;
    expect(login.length).toBeLessThanOrEqual(39);
    expect(login.endsWith("-")).toBe(false);
  });
});
