// GitHub's answer to "what may this person do here?" mapped onto the port's Permission.
// `role_name` is the fine-grained role (admin, maintain, write, triage, read, or the name
// of a custom role); `permission` is the legacy coarse level (admin, write, read, none),
// which is what a custom role resolves to. Authority is always this live answer, never
// `author_association` (README, "How a job works").

import { PERMISSIONS, type Permission } from "../../ports/forge.js";

function asPermission(value: string | null | undefined): Permission | undefined {
  const lowered = value?.trim().toLowerCase();
  return PERMISSIONS.find((permission) => permission === lowered);
}

export function mapPermission(answer: {
  permission: string;
  role_name?: string | null | undefined;
}): Permission {
  // A custom role's name is not one of ours: fall back to the level it is built on.
  return asPermission(answer.role_name) ?? asPermission(answer.permission) ?? "none";
}
