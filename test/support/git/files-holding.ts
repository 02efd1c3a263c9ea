// Which files of a branch hold any of some strings (a runner's paths, a secret): `git grep`
// over the committed tree, never the working tree.

import { execFileSync } from "node:child_process";

/** The files of `ref` holding any of `needles` literally (`git grep` exits 1 when none does). */
export function filesHolding(repo: string, ref: string, needles: readonly string[]): string[] {
  try {
    const args = ["grep", "-l", "-F", ...needles.flatMap((n) => ["-e", n]), ref];
    return execFileSync("git", args, { cwd: repo, encoding: "utf8" }).split("\n").filter(Boolean);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

/** Tool droppings by path: what tools write under HOME (logs, caches, config, histories). */
export const DROPPING_PATH =
  /(^|\/)(\.npm|\.npmrc|\.cache|\.config|\.local|\.gitconfig|\.[a-z_]*history)(\/|$)/u;
