// Who may act on a job (README, "How a job works"): people with write, maintain or admin
// on the repository, checked live, or a login the repository lists in `approvers`. Logins
// compare case-insensitively, as GitHub's do.

import { ACTING_PERMISSIONS, type Permission } from "../ports/forge.js";

export function mayAct(login: string, permission: Permission, approvers: readonly string[]) {
  const lowered = login.toLowerCase();
  return (
    ACTING_PERMISSIONS.includes(permission) || approvers.some((a) => a.toLowerCase() === lowered)
  );
}
