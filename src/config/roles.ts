// The agent roles a deployment configures (docs/architecture.md: agents/): the
// two phase leads, the workers and verifiers they dispatch, and the proxy that stands for the
// person (docs/protocol.md#message-soup). Models, commands and network access are set per role.

export const ROLES = ["intent-lead", "project-lead", "worker", "verifier", "proxy"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as readonly string[]).includes(value);
