// The boundary check's one error (docs/protocol.md#workspaces: a tool effect that would escape the
// workspace is refused). `reason` is a stable code for callers; the message is for the agent.

export const BOUNDARY_REASONS = [
  "invalid-path",
  "too-long",
  "too-deep",
  "home",
  "empty",
  "outside",
  "system-path",
  "git-dir",
  "workspace-root",
  "protected",
  "hard-link",
  "symlink-loop",
  "unreadable",
  "changed",
  "link",
] as const;
export type BoundaryReason = (typeof BOUNDARY_REASONS)[number];

export function isBoundaryReason(value: unknown): value is BoundaryReason {
  return typeof value === "string" && (BOUNDARY_REASONS as readonly string[]).includes(value);
}

const SHOWN_CHARS = 200;

/** Quotes the requested path for a message, escaping control bytes and shortening huge ones. */
function show(requested: string): string {
  const text = requested.length > SHOWN_CHARS ? `${requested.slice(0, SHOWN_CHARS)}…` : requested;
  return JSON.stringify(text);
}

export class BoundaryError extends Error {
  override readonly name = "BoundaryError";
  constructor(
    /** The path exactly as the tool asked for it. */
    readonly requested: string,
    readonly reason: BoundaryReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`cfa/boundary: refused ${show(requested)}: ${detail}`, options);
  }
}
