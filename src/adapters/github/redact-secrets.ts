// Nothing the bot logs or throws may carry a credential (DESIGN.md: "nothing the bot posts
// contains a secret"). Known secrets are replaced verbatim; anything shaped like a GitHub
// token, an Authorization header or credentials in a URL is replaced too, because an
// Octokit client may hold a token this adapter was never told about.

const REDACTED = "[redacted]";

const TOKEN_PATTERNS: readonly RegExp[] = [
  // Personal, OAuth, user-to-server, server-to-server (installation) and refresh tokens,
  // including the stateless installation format `ghs_<app id>_<JWT>` GitHub began minting in
  // 2026 (generating-an-installation-access-token-for-a-github-app): underscores, dots, dashes.
  /\bgh[pousr]_[A-Za-z0-9_]{16,}(?:[.-][A-Za-z0-9_-]+)*/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  // A JWT (GitHub App authentication).
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
];

export type Redact = (text: string) => string;

type Secrets = readonly (string | undefined)[];

/**
 * Text → the same text with every secret in `secrets`, and anything token-shaped, hidden.
 * `secrets` may be a function: read at every call, for tokens minted while the process runs.
 */
export function createRedactor(secrets: Secrets | (() => Secrets)): Redact {
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = (list: Secrets) =>
    list
      .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
      .sort((a, b) => b.length - a.length);
  const fixed = typeof secrets === "function" ? undefined : sorted(secrets);
  return (text) => {
    const known = fixed ?? sorted((secrets as () => Secrets)());
    let out = text;
    for (const secret of known) out = out.split(secret).join(REDACTED);
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    return out
      .replace(
        /(authorization:\s*)(?:(basic|bearer|token)\s+)?[^\s'"]+/gi,
        (_match, prefix: string, scheme: string | undefined) =>
          `${prefix}${scheme === undefined ? "" : `${scheme} `}${REDACTED}`,
      )
      .replace(/(\/\/)[^/@\s'"]+@/g, `$1${REDACTED}@`);
  };
}
