// A picture of the job for people on GitHub: the state machine (docs/protocol.md#jobs-and-states)
// with the current state marked and the edges taken counted (backtracks called out), and the
// dispatch tree with each task's status. Pure: records in, Markdown out. GitHub renders a fenced
// ```mermaid block as a diagram
// (https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/creating-diagrams).
// Nothing an agent wrote reaches the diagram except through mermaidLabel().

import {
  ACTION_TO_STATE,
  LIVE_STATES,
  TERMINAL_STATES,
  VALID_ACTIONS,
  isBacktrack,
  type Action,
  type State,
} from "../protocol/fsm.js";
import { mermaidBlock, mermaidLabel } from "./mermaid-text.js";
import { taskStatusWords } from "./task-status-words.js";
import { TASKS_SHOWN, tasksThatMatter } from "./tasks-that-matter.js";

export interface DiagramTransition {
  from: State;
  action: Action;
  to: State;
}

/** One node of the dispatch tree: a task, hung under its parent task (null: the lead). */
export interface DiagramTask {
  id: string;
  parent: string | null;
  status: string;
  /** The verifier's last verdict, if it has given one. */
  verdict?: "pass" | "fail" | undefined;
}

export interface JobDiagramFacts {
  job: number;
  state: State;
  /** Round k ≥ 2 of its issue: a follow-up, started by a request on the pull request. */
  round?: number;
  history: readonly DiagramTransition[];
  tasks: readonly DiagramTask[];
}

/**
 * A tree larger than this is collapsed to the tasks that matter (tasks-that-matter.ts), the
 * rest counted by status: a comment has a size limit, and a person reads a few tasks.
 */
export const MAX_TREE_NODES = TASKS_SHOWN;

// Colours readable in GitHub's light and dark themes. A terminal state has its own colour, so an
// end is never mistaken for another: DONE green, FAILURE red, WITHDRAWN grey — never the amber of a
// live one.
const STATE_CLASSES = [
  "classDef current fill:#fde68a,stroke:#b45309,stroke-width:3px,color:#111",
  "classDef visited fill:#e0f2fe,stroke:#0369a1,color:#111",
  "classDef done fill:#bbf7d0,stroke:#15803d,stroke-width:3px,color:#111",
  "classDef failed fill:#fecaca,stroke:#b91c1c,stroke-width:3px,color:#111",
  "classDef withdrawn fill:#e5e7eb,stroke:#4b5563,stroke-width:3px,color:#111",
  "classDef ends fill:#f3f4f6,stroke:#9ca3af,color:#374151",
  // A state the job never reached: as faint as the edges it did not take.
  "classDef unreached fill:#ffffff,stroke:#d1d5db,color:#9ca3af",
];
const TERMINAL_CLASS: Partial<Record<State, string>> = {
  DONE: "done",
  FAILURE: "failed",
  WITHDRAWN: "withdrawn",
};
/** The path taken drawn strongly, every other edge faint, so the job's path stands out. */
const TAKEN_STYLE = "stroke:#0369a1,stroke-width:3px,color:#0c4a6e";
const NOT_TAKEN_STYLE = "stroke:#d1d5db,stroke-width:1px,color:#9ca3af";

/**
 * The state machine (docs/protocol.md#jobs-and-states), every edge from the transition table, with
 * this job's path on it: a Mermaid flowchart (a state diagram cannot style its edges,
 * https://mermaid.js.org/syntax/flowchart.html#styling-links): edges taken are thick (`==>`) and
 * dark, counted and backtracks called out; the rest dotted (`-.->`) and faint.
 */
export function stateDiagram(facts: Pick<JobDiagramFacts, "state" | "history" | "round">): string {
  const taken = new Map<string, number>();
  for (const t of facts.history) {
    const key = `${t.from} ${t.action}`;
    taken.set(key, (taken.get(key) ?? 0) + 1);
  }
  const start =
    facts.round === undefined || facts.round <= 1
      ? "request"
      : mermaidLabel(`follow-up ${facts.round}'s request`);
  const lines = ["flowchart TB", `start(["${start}"]) --> INTENT`];
  const strong = [0];
  const faint: number[] = [];
  for (const from of LIVE_STATES) {
    for (const action of VALID_ACTIONS[from]) {
      const to = ACTION_TO_STATE[action];
      const count = taken.get(`${from} ${action}`) ?? 0;
      const times = count > 1 ? ` ${count}x` : "";
      const label =
        count === 0
          ? action
          : isBacktrack(from, to)
            ? `${action} (backtrack taken${times})`
            : `${action} (taken${times})`;
      (count === 0 ? faint : strong).push(lines.length - 1);
      lines.push(`${from} ${count === 0 ? "-.->" : "==>"}|"${label}"| ${to}`);
    }
  }
  (facts.state === "DONE" ? strong : faint).push(lines.length - 1);
  lines.push('DONE --> merge(["a person merges"])', ...STATE_CLASSES);
  lines.push(`linkStyle ${strong.join(",")} ${TAKEN_STYLE}`);
  if (faint.length > 0) lines.push(`linkStyle ${faint.join(",")} ${NOT_TAKEN_STYLE}`);
  lines.push("class start,merge ends");
  const visited = new Set<State>(["INTENT", ...facts.history.flatMap((t) => [t.from, t.to])]);
  visited.delete(facts.state);
  const order: readonly State[] = [...LIVE_STATES, ...TERMINAL_STATES];
  for (const state of order) if (visited.has(state)) lines.push(`class ${state} visited`);
  const unreached = order.filter((state) => !visited.has(state) && state !== facts.state);
  if (unreached.length > 0) lines.push(`class ${unreached.join(",")} unreached`);
  lines.push(`class ${facts.state} ${TERMINAL_CLASS[facts.state] ?? "current"}`);
  return mermaidBlock(lines);
}

// Class names of our own (never a task's words); a status we do not know reads as working.
// Maps, not object literals: a status named "toString" must not find Object's prototype.
const WORKING = { name: "working", style: "fill:#fef9c3,stroke:#a16207,color:#111" };
const TASK_CLASSES = new Map<string, { name: string; style: string }>([
  ["open", WORKING],
  ["merged", { name: "merged", style: "fill:#dcfce7,stroke:#15803d,color:#111" }],
  ["conflict", { name: "conflicted", style: "fill:#fee2e2,stroke:#b91c1c,color:#111" }],
  [
    "dropped",
    { name: "dropped", style: "fill:#e5e7eb,stroke:#4b5563,color:#111,stroke-dasharray:4 2" },
  ],
]);

/**
 * The dispatch tree (docs/protocol.md#dispatch): the lead at the root, each task under its parent.
 * Node ids are generated (`t0`, `t1`…), never taken from task ids; a task whose parent is unknown,
 * or that sits on a cycle, hangs from the root so every task is drawn once.
 */
export function dispatchTree(facts: Pick<JobDiagramFacts, "job" | "state" | "tasks">): string {
  const tasks = [...facts.tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const parentOf = (task: DiagramTask): string | null => {
    // Walk up: a parent that is missing, or a chain that comes back to this task, is the root.
    const seen = new Set([task.id]);
    let up = task.parent;
    while (up !== null) {
      const next = byId.get(up);
      if (next === undefined || seen.has(up)) return null;
      seen.add(up);
      up = next.parent;
    }
    return task.parent;
  };
  // Depth first from the lead, children by id: a parent is always drawn before its children,
  // so a tree cut at MAX_TREE_NODES still hangs every drawn task from its own parent.
  const { shown: picked, rest } = tasksThatMatter(tasks, MAX_TREE_NODES);
  const pickedIds = new Set(picked.map((t) => t.id));
  const children = new Map<string | null, DiagramTask[]>();
  for (const task of picked) {
    const up = parentOf(task);
    const parent = up !== null && pickedIds.has(up) ? up : null;
    children.set(parent, [...(children.get(parent) ?? []), task]);
  }
  const shown: DiagramTask[] = [];
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length > 0 && shown.length < MAX_TREE_NODES) {
    const task = stack.pop()!;
    shown.push(task);
    stack.push(...[...(children.get(task.id) ?? [])].reverse());
  }
  // Node names by the task's place among all tasks sorted by id: a task keeps its name as
  // the tree grows, whatever is drawn.
  const number = new Map(tasks.map((t, i) => [t.id, i]));
  const ids = new Map(shown.map((t) => [t.id, `t${number.get(t.id)!}`]));
  const lines = [
    "flowchart TD",
    ...[...TASK_CLASSES.values()].map((c) => `classDef ${c.name} ${c.style}`),
    `lead(["job ${mermaidLabel(`#${facts.job}`)}: ${mermaidLabel(facts.state)}"])`,
  ];
  for (const task of shown) {
    const node = ids.get(task.id)!;
    const words = taskStatusWords(task.status);
    const verdict = task.verdict === undefined ? "" : `, verifier ${task.verdict}`;
    lines.push(`${node}["${mermaidLabel(task.id, 40)}: ${mermaidLabel(words + verdict, 40)}"]`);
    const parent = parentOf(task);
    const from = parent === null ? "lead" : (ids.get(parent) ?? "lead");
    lines.push(`${from} --> ${node}`);
    lines.push(`class ${node} ${(TASK_CLASSES.get(task.status) ?? WORKING).name}`);
  }
  if (tasks.length > shown.length) {
    const left = tasks.length - shown.length;
    const words = rest !== null && rest.count === left ? `: ${rest.words}` : "";
    lines.push(`more["${mermaidLabel(`${left} more not drawn${words}`, 120)}"]`, "lead -.- more");
  }
  return mermaidBlock(lines);
}

/** Both pictures as Markdown: the state machine, then the tree once a task was dispatched. */
export function jobPicture(facts: JobDiagramFacts): string {
  const parts = [stateDiagram(facts)];
  if (facts.tasks.length > 0) parts.push(dispatchTree(facts));
  return parts.join("\n\n");
}
