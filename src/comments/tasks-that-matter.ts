// A big job's tasks collapsed to what a person acts on: the status comment's
// table and its tree of 60 tasks were a 60-row table and a 968×50 px strip. Above a bound,
// only the tasks that matter are listed — working, queued, in a merge conflict, or failing
// their verifier — each with the tasks above it (so a sub-task still hangs where it belongs),
// and the rest are counted by status. Pure.

import { taskStatusWords } from "./task-status-words.js";

/** At most this many tasks are drawn in the tree or listed in the table. */
export const TASKS_SHOWN = 20;

export interface TaskLike {
  id: string;
  parent: string | null;
  status: string;
  /** The verifier's last verdict. */
  verdict?: "pass" | "fail" | undefined;
}

export interface TasksShown<T> {
  shown: T[];
  /** "43 merged, 2 dropped" for the tasks left out, or null when every task is shown. */
  rest: { count: number; words: string } | null;
}

// Which matter first: a conflict waits on someone, a failing task is about to be retried or
// dropped, a working one is the job's progress. A Map: a status named "toString" is no key.
const RANK = new Map([
  ["conflict", 0],
  ["open", 2],
  ["queued", 3],
]);
const rank = (task: TaskLike): number =>
  task.verdict === "fail" && task.status !== "merged" && task.status !== "dropped"
    ? 1
    : (RANK.get(task.status) ?? 9);

export function tasksThatMatter<T extends TaskLike>(
  tasks: readonly T[],
  limit = TASKS_SHOWN,
): TasksShown<T> {
  const sorted = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (sorted.length <= limit) return { shown: sorted, rest: null };
  const byId = new Map(sorted.map((t) => [t.id, t]));
  const chosen = new Set<string>();
  const candidates = sorted.filter((t) => rank(t) < 9).sort((a, b) => rank(a) - rank(b));
  for (const task of candidates) {
    // The task and the tasks above it (a cycle or a missing parent ends the walk).
    const chain: string[] = [];
    const seen = new Set<string>();
    for (let at: T | undefined = task; at !== undefined && !seen.has(at.id);) {
      seen.add(at.id);
      if (!chosen.has(at.id)) chain.push(at.id);
      at = at.parent === null ? undefined : byId.get(at.parent);
    }
    if (chosen.size + chain.length > limit) continue;
    for (const id of chain) chosen.add(id);
  }
  const shown = sorted.filter((t) => chosen.has(t.id));
  const left = sorted.filter((t) => !chosen.has(t.id));
  const counts = new Map<string, number>();
  for (const t of left) {
    const words = taskStatusWords(t.status);
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  const words = [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w, n]) => `${n} ${w}`)
    .join(", ");
  return { shown, rest: { count: left.length, words } };
}
