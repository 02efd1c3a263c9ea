// Nothing the bot logs or throws may carry a credential (DESIGN.md: "nothing the bot posts
// contains a secret"). Known secrets are replaced verbatim; anything shaped like a GitHub
// token, an Authorization header or credentials in a URL is replaced too, because an
// Octokit client may hold a token this adapter was never told about.

const REDACTED = "[redacted]";

const TOKEN_PATTERNS: readonly RegExp[] = [
  // Personal, OAuth, user-to-server, server-to-server (installation) and refresh tokens.
  /\bgh[pousr]_[A-Za-z0-9]{16,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  // A JWT (GitHub App authentication).
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
];

export type Redact = (text: string) => string;

/** Text → the same text with every secret in `secrets`, and anything token-shaped, hidden. */
export function createRedactor(secrets: readonly (string | undefined)[]): Redact {
  // Longest first, so a secret that contains another is replaced whole.
  const known = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => {
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
