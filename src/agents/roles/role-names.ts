// The roles an instance can be sparked with; each has `prompts/roles/<name>.md`.

export const ROLE_NAMES = ["intent-lead", "project-lead", "worker", "verifier", "proxy"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export function isRoleName(value: unknown): value is RoleName {
  return typeof value === "string" && (ROLE_NAMES as readonly string[]).includes(value);
}
