import { describe, expect, it } from "vitest";
import { inertMermaid } from "../../../../src/cli/page/inert-mermaid.js";

describe("inertMermaid", () => {
  it("keeps a diagram that asks for nothing as it is", () => {
    const source = [
      "flowchart TD",
      '  A["Start"] --> B{"link: ok?"}',
      "  B -->|yes| C",
      "  linkStyle 0 stroke:#f00",
      '  C@{ shape: rounded, label: "icon: none" }',
    ].join("\n");
    expect(inertMermaid(source)).toBe(source);
  });

  it.each([
    ["click", 'flowchart TD\n  A --> B\n  click B "https://x"', "flowchart TD\n  A --> B"],
    ["callback", 'classDiagram\n  class C\n  callback C "fn"', "classDiagram\n  class C"],
    ["class link", 'classDiagram\n  class C\n  link C "https://x"', "classDiagram\n  class C"],
    [
      "actor link",
      "sequenceDiagram\n  link Alice: D @ https://x\n  A->>B: hi",
      "sequenceDiagram\n  A->>B: hi",
    ],
    ["actor links", 'sequenceDiagram\n  links Alice: {"a": "https://x"}', "sequenceDiagram"],
    [
      "C4 $link",
      'C4Context\n  Person(a, "A", "x", $link="https://x")',
      'C4Context\n  Person(a, "A", "x")',
    ],
    [
      "image shape",
      'flowchart TD\n  P@{ img: "https://x/p.png", label: "p" }',
      'flowchart TD\n  P@{ label: "p" }',
    ],
    ["directive", '%%{init: {"securityLevel":"loose"}}%%\nflowchart TD', "\nflowchart TD"],
    [
      "front matter",
      "---\ntitle: T\nconfig:\n  theme: dark\n---\nflowchart TD",
      "---\ntitle: T\n---\nflowchart TD",
    ],
  ])("takes out %s", (_what, source, expected) => {
    expect(inertMermaid(source)).toBe(expected);
  });

  it("is linear on unclosed directives and shape data", () => {
    const hostile = "%%{".repeat(50_000) + "\n" + "A@{ img: ".repeat(20_000);
    const started = performance.now();
    inertMermaid(hostile);
    // A bound no linear pass comes near, far below a quadratic one's minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
