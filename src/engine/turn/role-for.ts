// A role as this job runs it: the role's prompt and tools, with the commands and network the
// repository's configuration gives it.

import { loadRole, withOverrides, type RoleName } from "../../agents/roles/index.js";
import type { RoleDefinition } from "../../agents/turn-contract.js";
import type { JobRecords } from "../job/session.js";

export function roleFor(s: JobRecords, name: RoleName): RoleDefinition {
  return withOverrides(loadRole(name), {
    commands: s.config.commands[name],
    network: s.config.network[name],
  });
}
