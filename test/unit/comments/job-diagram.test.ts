// The picture of the job is a pure function of the records. The state machine is checked
// against seed 000's own Diagram 1 (copied below, not read from our table), and the escaping
// against a grammar of the lines a diagram may contain: whatever an agent names a task, the
// output stays two fenced Mermaid blocks whose labels are inert.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_TREE_NODES,
  dispatchTree,
  jobPicture,
  stateDiagram,
  type DiagramTask,
  type DiagramTransition,
} from "../../../src/comments/job-diagram.js";
import { mermaidLabel } from "../../../src/comments/mermaid-text.js";

// Seed 000 §3, Diagram 1, verbatim.
const DIAGRAM_1 = `INTENT --> PLAN : APPROVED_INTENT
PLAN --> EXECUTE : APPROVED_PLAN
EXECUTE --> DONE : APPROVED_WORK
PLAN --> INTENT : REALIGN
EXECUTE --> INTENT : REALIGN
EXECUTE --> PLAN : REPLAN
INTENT --> WITHDRAWN : WITHDRAW
PLAN --> WITHDRAWN : WITHDRAW
EXECUTE --> WITHDRAWN : WITHDRAW
INTENT --> FAILURE : FAILURE
PLAN --> FAILURE : FAILURE
EXECUTE --> FAILURE : FAILURE`.split("\n");

const t = (from: string, action: string, to: string) => ({ from, action, to }) as DiagramTransition;

function body(markdown: string): string[] {
  const lines = markdown.split("\n");
  expect(lines[0]).toBe("```mermaid");
  expect(lines.at(-1)).toBe("```");
  return lines.slice(1, -1);
}

/** Mermaid's entity codes back to characters: what a person sees in the rendered label. */
const decode = (label: string) =>
  label.replace(/#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)));

describe("stateDiagram: seed 000 Diagram 1 with this job's path on it", () => {
  it("draws every edge of Diagram 1 and nothing else, entering at INTENT and leaving at DONE", () => {
    const lines = body(stateDiagram({ state: "INTENT", history: [] }));
    expect(lines.slice(0, 3)).toEqual(["stateDiagram-v2", "direction TB", "[*] --> INTENT"]);
    const edges = lines.filter((l) => / --> /.test(l) && !l.includes("[*]"));
    expect(edges.sort()).toEqual([...DIAGRAM_1].sort());
    expect(lines).toContain("DONE --> [*]");
    expect(lines.filter((l) => l.startsWith("class "))).toEqual(["class INTENT current"]);
  });

  it("marks the current state, the states passed through, and counts each edge taken", () => {
    const history = [
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "APPROVED_PLAN", "EXECUTE"),
      t("EXECUTE", "REPLAN", "PLAN"),
      t("PLAN", "APPROVED_PLAN", "EXECUTE"),
    ];
    const lines = body(stateDiagram({ state: "EXECUTE", history }));
    expect(lines).toContain("INTENT --> PLAN : APPROVED_INTENT (taken)");
    expect(lines).toContain("PLAN --> EXECUTE : APPROVED_PLAN (taken 2x)");
    expect(lines).toContain("EXECUTE --> PLAN : REPLAN (backtrack taken)");
    expect(lines).toContain("EXECUTE --> INTENT : REALIGN");
    expect(lines.filter((l) => l.startsWith("class "))).toEqual([
      "class INTENT visited",
      "class PLAN visited",
      "class EXECUTE current",
    ]);
  });

  it("two realigns from EXECUTE and one from PLAN are counted on their own edges", () => {
    const history = [
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "REALIGN", "INTENT"),
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "APPROVED_PLAN", "EXECUTE"),
      t("EXECUTE", "REALIGN", "INTENT"),
      t("INTENT", "APPROVED_INTENT", "PLAN"),
      t("PLAN", "APPROVED_PLAN", "EXECUTE"),
      t("EXECUTE", "REALIGN", "INTENT"),
      t("INTENT", "WITHDRAW", "WITHDRAWN"),
    ];
    const lines = body(stateDiagram({ state: "WITHDRAWN", history }));
    expect(lines).toContain("PLAN --> INTENT : REALIGN (backtrack taken)");
    expect(lines).toContain("EXECUTE --> INTENT : REALIGN (backtrack taken 2x)");
    expect(lines).toContain("INTENT --> PLAN : APPROVED_INTENT (taken 3x)");
    expect(lines).toContain("INTENT --> WITHDRAWN : WITHDRAW (taken)");
    expect(lines).toContain("class WITHDRAWN current");
  });
});

describe("dispatchTree: the lead at the root, each task under its parent", () => {
  const task = (id: string, parent: string | null, status = "open"): DiagramTask => ({
    id,
    parent,
    status,
  });

  it("nests sub-tasks under the task that dispatched them, at any depth", () => {
    const lines = body(
      dispatchTree({
        job: 7,
        state: "EXECUTE",
        tasks: [
          task("api", null, "merged"),
          task("api-db", "api", "open"),
          task("api-db-index", "api-db", "conflict"),
          task("docs", null, "dropped"),
        ],
      }),
    );
    expect(lines).toContain('lead(["job #35;7: EXECUTE"])');
    // Sorted by id: api t0, api-db t1, api-db-index t2, docs t3.
    expect(lines).toContain('t0["api: merged"]');
    expect(lines).toContain('t2["api-db-index: merge conflict"]');
    const edges = lines.filter((l) => l.includes("-->"));
    expect(edges).toEqual(["lead --> t0", "t0 --> t1", "t1 --> t2", "lead --> t3"]);
    expect(lines).toContain("class t0 merged");
    expect(lines).toContain("class t1 working");
    expect(lines).toContain("class t2 conflicted");
    expect(lines).toContain("class t3 dropped");
  });

  it("shows the verifier's last verdict beside the status", () => {
    const lines = body(
      dispatchTree({
        job: 1,
        state: "EXECUTE",
        tasks: [{ id: "hello", parent: null, status: "merged", verdict: "pass" }],
      }),
    );
    expect(lines).toContain('t0["hello: merged, verifier pass"]');
  });

  it("a task whose parent is unknown, or that sits on a cycle, hangs from the lead, drawn once", () => {
    const lines = body(
      dispatchTree({
        job: 1,
        state: "EXECUTE",
        tasks: [task("a", "b"), task("b", "a"), task("c", "gone"), task("d", "d")],
      }),
    );
    const edges = lines.filter((l) => l.includes("-->"));
    expect(edges).toEqual(["lead --> t0", "lead --> t1", "lead --> t2", "lead --> t3"]);
    expect(lines.filter((l) => /^t\d+\[/.test(l))).toHaveLength(4);
  });

  it(`draws at most ${MAX_TREE_NODES} tasks and says how many more there are`, () => {
    const tasks = Array.from({ length: MAX_TREE_NODES + 7 }, (_, i) =>
      task(`task-${String(i).padStart(3, "0")}`, null),
    );
    const lines = body(dispatchTree({ job: 1, state: "EXECUTE", tasks }));
    expect(lines.filter((l) => /^t\d+\[/.test(l))).toHaveLength(MAX_TREE_NODES);
    expect(lines).toContain('more["7 more tasks not drawn"]');
  });

  it("a tree cut short still hangs each drawn sub-task from its own parent (parents first)", () => {
    // Sub-tasks whose ids sort before their parent's, deeper than the cut.
    const id = (i: number) => `a-${String(i).padStart(3, "0")}`;
    const tasks = [
      task("z-root", null),
      ...Array.from({ length: MAX_TREE_NODES + 5 }, (_, i) =>
        task(id(i), i === 0 ? "z-root" : id(i - 1)),
      ),
    ];
    const lines = body(dispatchTree({ job: 1, state: "EXECUTE", tasks }));
    // Nodes are named by id order (a-000 t0 … a-054 t54, z-root t55), drawn from the root.
    const root = `t${MAX_TREE_NODES + 5}`;
    expect(lines).toContain(`${root}["z-root: working"]`);
    const edges = lines.filter((l) => l.includes("-->"));
    expect(edges[0]).toBe(`lead --> ${root}`);
    expect(edges[1]).toBe(`${root} --> t0`);
    // The chain unbroken down to the cut: each drawn task under the one drawn before it.
    expect(edges.slice(2)).toEqual(
      Array.from({ length: MAX_TREE_NODES - 2 }, (_, i) => `t${i} --> t${i + 1}`),
    );
    expect(lines).toContain('more["6 more tasks not drawn"]');
  });

  it("jobPicture leaves the tree out until a task is dispatched", () => {
    const none = jobPicture({ job: 1, state: "INTENT", history: [], tasks: [] });
    expect(none.match(/```mermaid/g)).toHaveLength(1);
    const some = jobPicture({ job: 1, state: "EXECUTE", history: [], tasks: [task("x", null)] });
    expect(some.match(/```mermaid/g)).toHaveLength(2);
  });
});

describe("hostile task names cannot break the diagram or inject Markdown or HTML", () => {
  // What a diagram of ours may contain, line by line (independent of the escaping code).
  // Plain characters, or an entity code `#<decimal>;`: nothing else (no quote, backtick, <).
  const LABEL = String.raw`(?:[A-Za-z0-9 _.,:/()+=\-]|#\d+;)*`;
  const TREE_LINE = new RegExp(
    [
      "^flowchart TD$",
      "^classDef \\w+ [\\w:#,. -]+$",
      `^lead\\(\\["${LABEL}"\\]\\)$`,
      `^t\\d+\\["${LABEL}"\\]$`,
      "^(lead|t\\d+) --> t\\d+$",
      "^class t\\d+ (working|merged|conflicted|dropped)$",
      '^more\\["\\d+ more tasks not drawn"\\]$',
      "^lead -\\.- more$",
    ].join("|"),
  );
  const hostile = fc.oneof(
    fc.string({ unit: "binary", maxLength: 80 }),
    fc.constantFrom(
      "```\n# owned",
      'x"] --> lead\nclick t0 "https://evil"',
      "%%{init: {'securityLevel': 'loose'}}%%",
      "<img src=x onerror=alert(1)>",
      "end",
      "a;b;c",
      "@ana please approve",
      "#quot;",
      "toString",
      "__proto__",
      "\u0000\u200b\u202e",
    ),
  );

  it("every line of the tree is one of the shapes a diagram of ours has", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: hostile, parent: fc.option(hostile), status: hostile }), {
          maxLength: 6,
        }),
        (tasks) => {
          const out = dispatchTree({ job: 3, state: "EXECUTE", tasks });
          const lines = out.split("\n");
          expect(lines[0]).toBe("```mermaid");
          expect(lines.at(-1)).toBe("```");
          for (const line of lines.slice(1, -1)) expect(line).toMatch(TREE_LINE);
          // No backtick at all inside: the fence cannot be closed early.
          expect(lines.slice(1, -1).join("\n")).not.toContain("`");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a label shows the name as written (entities decode to it), cut to its length", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (name) => {
        const flat = name.replace(/\s+/g, " ").trim();
        expect(decode(mermaidLabel(name))).toBe(flat);
      }),
    );
    expect(decode(mermaidLabel("x".repeat(80), 10))).toBe(`${"x".repeat(9)}…`);
    expect(mermaidLabel('a"b`c<d>e;f%g\nh')).toBe("a#34;b#96;c#60;d#62;e#59;f#37;g h");
  });
});
