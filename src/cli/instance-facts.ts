// What an instance's transcript says about its work, for `watch` and `inspect`: a
// verifier's verdict, the files a worker wrote. Pure.

import { callFacts } from "../agents/tools/call-facts.js";
import type { InstanceView } from "./job-view.js";

/** The verdict of an instance's last `verdict` call, or null. */
export function verdictOf(inst: InstanceView): string | null {
  for (const turn of [...inst.turns].reverse())
    for (const use of [...turn.toolUses].reverse()) {
      const verdict = (use.input as { verdict?: unknown } | null)?.verdict;
      if (use.name === "verdict" && typeof verdict === "string") return verdict;
    }
  return null;
}

/** The verifiers of `task` (threads verify:<task>-<attempt>), in attempt order. */
export function verifiersOf(instances: readonly InstanceView[], task: string): InstanceView[] {
  const prefix = `verify:${task}-`;
  return instances
    .filter((i) => i.agent === "verifier" && i.thread.startsWith(prefix))
    .map((i) => ({ i, attempt: Number(i.thread.slice(prefix.length)) }))
    .filter((a) => Number.isInteger(a.attempt))
    .sort((a, b) => a.attempt - b.attempt)
    .map((a) => a.i);
}

/** The verdict of the task's latest verifier, or null. */
export function lastVerdict(instances: readonly InstanceView[], task: string): string | null {
  const latest = verifiersOf(instances, task).at(-1);
  return latest ? verdictOf(latest) : null;
}

/** Paths an instance wrote, from its file-writing calls (either tool set), in first-write order. */
export function filesWritten(inst: InstanceView | undefined): string[] {
  const paths = new Set<string>();
  for (const turn of inst?.turns ?? [])
    for (const use of turn.toolUses) {
      const wrote = callFacts(use.name, use.input).writes;
      if (wrote !== undefined) paths.add(wrote);
    }
  return [...paths];
}
