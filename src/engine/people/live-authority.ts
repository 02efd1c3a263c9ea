// Who may act on a job, checked live (authority is read at processing time from
// the collaborator permission API, never inferred from a label or `author_association`):
// write, maintain or admin, or a login listed in `approvers`. One permission read per login
// a wake asks about.

import type { Actor, Forge, Permission } from "../../ports/forge.js";
import { ACTING_PERMISSIONS } from "../../ports/forge.js";

export interface LiveAuthority {
  permissionOf(login: string): Promise<Permission>;
  mayAct(actor: Actor): Promise<boolean>;
}

/** `approvers` lowercased (GitHub logins compare case-insensitively). */
export function liveAuthority(
  forge: Pick<Forge, "permission">,
  approvers: string[],
): LiveAuthority {
  const permissions = new Map<string, Permission>();
  const permissionOf = async (login: string) => {
    let p = permissions.get(login);
    if (p === undefined) permissions.set(login, (p = await forge.permission(login)));
    return p;
  };
  return {
    permissionOf,
    mayAct: async (actor) =>
      approvers.includes(actor.login.toLowerCase()) ||
      ACTING_PERMISSIONS.includes(await permissionOf(actor.login)),
  };
}
