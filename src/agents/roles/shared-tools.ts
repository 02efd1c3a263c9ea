// How many of a role's first tools another role opens with too, in its tool set: the prefix the
// cache shares across roles (src/adapters/anthropic/cache-breakpoints.ts). Roles list their
// tools in one order (the role files: the workspace tools, then the protocol tools in a fixed
// order), so a worker's and a lead's requests open with the same bytes up to where their
// tools differ.

import type { RoleDefinition } from "../turn-contract.js";
import { loadRole } from "./load-role.js";
import { ROLE_NAMES } from "./role-names.js";

export function sharedToolCount(role: RoleDefinition): number {
  let best = 0;
  for (const name of ROLE_NAMES) {
    if (name === role.name) continue;
    const other = loadRole(name, { toolSet: role.toolSet }).tools;
    let n = 0;
    while (n < role.tools.length && n < other.length && role.tools[n] === other[n]) n += 1;
    best = Math.max(best, n);
  }
  return best;
}
