// The picture of the job is a pure function of the records. The state machine is checked
// against the protocol's state diagram (copied below, not read from our table), and the
// escaping against a grammar of the lines a diagram may contain: whatever an agent names a
// task, the output stays two fenced Mermaid blocks whose labels are inert.

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
import { historyOf } from "../../support/protocol/walks.js";

// The state diagram of docs/protocol.md#jobs-and-states, verbatim.
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

/** A transition off the state diagram where a test needs one; histories on it are historyOf's. */
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

/** The flowchart's edges between states, as the state diagram has them, and how each is drawn. */
function edges(lines: string[]): { edge: string; drawn: "taken" | "not taken"; index: number }[] {
  const out = [];
  let index = -1;
  for (const line of lines) {
    if (!/ (-->|==>|-\.->)/.test(line)) continue;
    index += 1;
    const m = /^([A-Z]+) (==>|-\.->)\|"([^"]*)"\| ([A-Z]+)$/.exec(line);
    if (m === null) continue;
    out.push({
      edge: `${m[1]} --> ${m[4]} : ${m[3]}`,
      drawn: m[2] === "==>" ? ("taken" as const) : ("not taken" as const),
      index,
    });
  }
  return out;
}

/** The link indices a `linkStyle` line with this style names. */
function styled(lines: string[], stroke: string): number[] {
  const line = lines.find((l) => l.startsWith("linkStyle ") && l.includes(stroke));
  return line === undefined ? [] : line.split(" ")[1]!.split(",").map(Number);
}

describe("stateDiagram: the state diagram with this job's path on it", () => {
  it("draws every edge of the state diagram and nothing else, entering at INTENT and leaving at DONE", () => {
    const lines = body(stateDiagram({ state: "INTENT", history: [] }));
    expect(lines.slice(0, 2)).toEqual(["flowchart TB", 'start(["request"]) --> INTENT']);
    expect(
      edges(lines)
        .map((e) => e.edge)
        .sort(),
    ).toEqual([...DIAGRAM_1].sort());
    expect(lines).toContain('DONE --> merge(["a person merges"])');
    expect(lines.filter((l) => /^class [A-Z]+ /.test(l))).toEqual(["class INTENT current"]);
    // Nothing taken yet: every edge of the table faint, only the way in strong.
    expect(edges(lines).every((e) => e.drawn === "not taken")).toBe(true);
    expect(styled(lines, "stroke-width:3px")).toEqual([0]);
  });

  it("draws the path taken strongly and the rest faint, marks the states and counts each edge", () => {
    const history = historyOf("APPROVED_INTENT", "APPROVED_PLAN", "REPLAN", "APPROVED_PLAN");
    const lines = body(stateDiagram({ state: "EXECUTE", history }));
    const drawn = edges(lines);
    const find = (edge: string) => drawn.find((e) => e.edge === edge);
    expect(find("INTENT --> PLAN : APPROVED_INTENT (taken)")?.drawn).toBe("taken");
    expect(find("PLAN --> EXECUTE : APPROVED_PLAN (taken 2x)")?.drawn).toBe("taken");
    expect(find("EXECUTE --> PLAN : REPLAN (backtrack taken)")?.drawn).toBe("taken");
    expect(find("EXECUTE --> INTENT : REALIGN")?.drawn).toBe("not taken");
    const strong = styled(lines, "stroke-width:3px");
    const faint = styled(lines, "stroke-width:1px");
    expect(strong.sort((a, b) => a - b)).toEqual(
      [0, ...drawn.filter((e) => e.drawn === "taken").map((e) => e.index)].sort((a, b) => a - b),
    );
    expect(faint).toEqual([
      ...drawn.filter((e) => e.drawn === "not taken").map((e) => e.index),
      drawn.length + 1,
    ]);
    expect(lines.filter((l) => /^class [A-Z]+ /.test(l))).toEqual([
      "class INTENT visited",
      "class PLAN visited",
      "class EXECUTE current",
    ]);
  });

  it("two realigns from EXECUTE and one from PLAN are counted on their own edges", () => {
    const history = historyOf(
      "APPROVED_INTENT",
      "REALIGN",
      "APPROVED_INTENT",
      "APPROVED_PLAN",
      "REALIGN",
      "APPROVED_INTENT",
      "APPROVED_PLAN",
      "REALIGN",
      "WITHDRAW",
    );
    const shown = edges(body(stateDiagram({ state: "WITHDRAWN", history }))).map((e) => e.edge);
    expect(shown).toContain("PLAN --> INTENT : REALIGN (backtrack taken)");
    expect(shown).toContain("EXECUTE --> INTENT : REALIGN (backtrack taken 2x)");
    expect(shown).toContain("INTENT --> PLAN : APPROVED_INTENT (taken 3x)");
    expect(shown).toContain("INTENT --> WITHDRAWN : WITHDRAW (taken)");
  });

  it("DONE, FAILURE and WITHDRAWN each in their own colour, never the amber of a live state", () => {
    const classOf = (state: "DONE" | "FAILURE" | "WITHDRAWN", action: string) => {
      const lines = body(
        stateDiagram({
          state,
          history: [t("INTENT", "APPROVED_INTENT", "PLAN"), t("PLAN", action, state)],
        }),
      );
      const name = lines.find((l) => l.startsWith(`class ${state} `))!.split(" ")[2]!;
      return { name, style: lines.find((l) => l.startsWith(`classDef ${name} `))! };
    };
    const done = classOf("DONE", "APPROVED_WORK");
    const failed = classOf("FAILURE", "FAILURE");
    const withdrawn = classOf("WITHDRAWN", "WITHDRAW");
    const live = body(stateDiagram({ state: "PLAN", history: [] })).find((l) =>
      l.startsWith("classDef current "),
    )!;
    const fill = (style: string) => /fill:(#[0-9a-f]+)/.exec(style)![1];
    const fills = [done, failed, withdrawn].map((c) => fill(c.style));
    expect(new Set([...fills, fill(live)]).size).toBe(4);
    expect([done.name, failed.name, withdrawn.name]).toEqual(["done", "failed", "withdrawn"]);
  });
});

describe("dispatchTree: the lead at the root, each task under its parent", () => {
  const task = (id: string, parent: string | null, status = "open"): DiagramTask => ({
    id,
    parent,
    status,
  });
  /** The tree's lines for job #1 in EXECUTE with `tasks`. */
  const treeLines = (tasks: DiagramTask[]): string[] =>
    body(dispatchTree({ job: 1, state: "EXECUTE", tasks }));

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
    const lines = treeLines([{ id: "hello", parent: null, status: "merged", verdict: "pass" }]);
    expect(lines).toContain('t0["hello: merged, verifier pass"]');
  });

  it("a task whose parent is unknown, or that sits on a cycle, hangs from the lead, drawn once", () => {
    const lines = treeLines([task("a", "b"), task("b", "a"), task("c", "gone"), task("d", "d")]);
    const edges = lines.filter((l) => l.includes("-->"));
    expect(edges).toEqual(["lead --> t0", "lead --> t1", "lead --> t2", "lead --> t3"]);
    expect(lines.filter((l) => /^t\d+\[/.test(l))).toHaveLength(4);
  });

  it(`draws at most ${MAX_TREE_NODES} tasks and says how many more there are`, () => {
    const tasks = Array.from({ length: MAX_TREE_NODES + 7 }, (_, i) =>
      task(`task-${String(i).padStart(3, "0")}`, null),
    );
    const lines = treeLines(tasks);
    expect(lines.filter((l) => /^t\d+\[/.test(l))).toHaveLength(MAX_TREE_NODES);
    expect(lines).toContain(`more["7 more not drawn: 7 working"]`);
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
    const lines = treeLines(tasks);
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
    expect(lines).toContain(
      `more["${tasks.length - MAX_TREE_NODES} more not drawn: ${tasks.length - MAX_TREE_NODES} working"]`,
    );
  });

  it("a big tree is collapsed to the tasks that matter, the rest counted (60 tasks: 3 drawn with 1 parent)", () => {
    const tasks: DiagramTask[] = Array.from({ length: 56 }, (_, i) =>
      task(`done-${String(i).padStart(2, "0")}`, null, i < 54 ? "merged" : "dropped"),
    );
    tasks.push(
      task("api", null, "merged"),
      task("api-db", "api", "conflict"),
      task("ui", null, "open"),
      { id: "zz-flaky", parent: null, status: "open", verdict: "fail" },
    );
    const lines = treeLines(tasks);
    const drawn = lines.filter((l) => /^t\d+\[/.test(l)).map((l) => l.replace(/^t\d+/, ""));
    // The conflict with the task above it, the failing one, the working one: nothing merged
    // but what holds a conflicted sub-task.
    expect(drawn).toEqual([
      '["api: merged"]',
      '["api-db: merge conflict"]',
      '["ui: working"]',
      '["zz-flaky: working, verifier fail"]',
    ]);
    expect(lines).toContain('more["56 more not drawn: 54 merged, 2 dropped"]');
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
      `^more\\["${LABEL}"\\]$`,
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
