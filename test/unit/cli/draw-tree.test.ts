import { describe, expect, it } from "vitest";
import { drawTree } from "../../../src/cli/draw-tree.js";

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
