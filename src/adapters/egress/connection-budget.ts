// The engine's descriptors that egress proxies may hold, all of them together: the proxies
// run in the engine's process (they need its resolver, its address checks and its records),
// so without a bound a command flooding its proxy's socket took the engine's whole table —
// its git, its record writes and other workspaces' commands then failed with EMFILE. Each
// proxy bounds its own command (egress-proxy.ts); this bounds them all, so however many
// commands flood at once, the engine keeps most of its table.
//
// A connection costs its client socket and, once let through, its upstream socket: two
// descriptors. The proxies together may hold an eighth of the process's RLIMIT_NOFILE in
// connections — a quarter of its descriptors — read from /proc/self/limits (Node raises the
// soft limit to the hard one at start), 1024 when it cannot be read.

import { readFileSync } from "node:fs";

export interface ConnectionBudget {
  /** Takes one connection's share; false when the budget is spent (the caller refuses it). */
  take(): boolean;
  /** Gives one back (once per successful take). */
  give(): void;
  readonly held: number;
  readonly size: number;
}

export function connectionBudget(size: number): ConnectionBudget {
  let held = 0;
  return {
    take() {
      if (held >= size) return false;
      held += 1;
      return true;
    },
    give() {
      held = Math.max(0, held - 1);
    },
    get held() {
      return held;
    },
    size,
  };
}

/** The process's soft RLIMIT_NOFILE ("Max open files" in /proc/self/limits), or null. */
export function openFilesLimit(limits = "/proc/self/limits"): number | null {
  try {
    const line = readFileSync(limits, "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/u)[0];
    if (soft === undefined || soft === "unlimited") return null;
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

let shared: ConnectionBudget | undefined;

/** The one budget of this process's proxies. */
export function processConnectionBudget(): ConnectionBudget {
  shared ??= connectionBudget(Math.max(64, Math.floor((openFilesLimit() ?? 1024) / 8)));
  return shared;
}
