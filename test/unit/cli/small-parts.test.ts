// The CLI's small pure parts: logins, titles, secrets, heartbeat text, trees, numbers.

import { describe, expect, it } from "vitest";
import { titleOf } from "../../../src/cli/commands/run.js";
import { drawTree } from "../../../src/cli/draw-tree.js";
import { formatTokens, formatUsd } from "../../../src/cli/format-usage.js";
import { waitingMessage } from "../../../src/cli/heartbeat.js";
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

describe("titleOf", () => {
  it("is the request's first line", () => {
    expect(titleOf("\nAdd a --json flag\nso scripts can parse it")).toBe("Add a --json flag");
  });

  it("cuts a long first line at a word, with an ellipsis", () => {
    const title = titleOf(`Add ${"very ".repeat(30)}long things`);
    expect(title.length).toBeLessThanOrEqual(73);
    expect(title.endsWith("very…")).toBe(true);
  });
});

describe("waitingMessage", () => {
  it("names who waits and for how long, from the oldest call", () => {
    expect(
      waitingMessage(
        [
          { instance: "worker@dispatch:b", since: 20_000 },
          { instance: "worker@dispatch:a", since: 5_000 },
        ],
        50_000,
      ),
    ).toBe("… waiting on the model for worker@dispatch:a, worker@dispatch:b (45 s)");
  });

  it("abbreviates many instances", () => {
    const many = ["a", "b", "c", "d", "e"].map((x) => ({
      instance: `worker@dispatch:${x}`,
      since: 0,
    }));
    expect(waitingMessage(many, 1000)).toContain("worker@dispatch:c and 2 more (1 s)");
  });
});

describe("drawTree", () => {
  it("draws branches and continuations like tree(1)", () => {
    expect(
      drawTree({
        label: "job",
        children: [
          { label: "INTENT", children: [{ label: "gate q1" }, { label: "lead" }] },
          { label: "PLAN", children: [{ label: "lead" }] },
        ],
      }),
    ).toEqual(["job", "├── INTENT", "│   ├── gate q1", "│   └── lead", "└── PLAN", "    └── lead"]);
  });
});

describe("formatTokens and formatUsd", () => {
  it.each([
    [999, "999"],
    [1234, "1.2k"],
    [184_000, "184k"],
    [2_345_678, "2.35M"],
  ])("%d tokens → %s", (n, text) => {
    expect(formatTokens(n)).toBe(text);
  });

  it("keeps cents of cents below a dollar", () => {
    expect(formatUsd(0.01234)).toBe("$0.0123");
    expect(formatUsd(12.5)).toBe("$12.50");
  });
});
