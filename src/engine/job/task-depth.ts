// How deep a task sits in the tree of tasks (tasks may dispatch sub-tasks, down to a depth cap):
// the lead's own tasks are at depth 1, theirs at 2. Pure over the recorded tasks.

import type { EngineState } from "../../records/engine-state.js";

/** How many tasks deep `id` sits below the lead: the lead's own tasks are at depth 1. */
export function taskDepth(tasks: EngineState["tasks"], id: string | undefined): number {
  let depth = 0;
  const seen = new Set<string>();
  for (let t = id; t !== undefined && !seen.has(t); t = tasks[t]?.parent) {
    seen.add(t);
    depth += 1;
  }
  return depth;
}
