// What counts as a secret, by a variable's name or by the shape of a value. One table for
// the whole process: the command environment filter (src/agents/commands/reduce-env.ts)
// and the redactor (./redactor.ts) read the same shapes.

/**
 * Names whose values never reach an agent's command. Broad on purpose: dropping a harmless
 * variable from a command's environment costs little.
 */
export const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE/i;

/**
 * Names whose values the redactor learns from the environment. Matched per `_`/`-`
 * separated word, so GITHUB_TOKEN, ANTHROPIC_API_KEY, WEBHOOK_SECRET, AWS_SESSION_TOKEN and
 * INPUT_GITHUB-TOKEN count, while GIT_AUTHOR_EMAIL or KEYBOARD do not: every value learnt
 * is cut out of everything the bot writes, so an ordinary value here would mangle comments.
 */
const SECRET_WORD = /^(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASS|CREDENTIALS?|AUTH|PAT|PEM)$/i;

export function looksLikeSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function isSecretVariable(name: string): boolean {
  return name.split(/[_-]/).some((word) => SECRET_WORD.test(word));
}

/**
 * A token shape: anything matching `pattern` is a credential whoever minted it. Sources:
 * GitHub's prefixes ghp_ (personal), gho_ (OAuth), ghu_ (user-to-server), ghs_
 * (server-to-server: installation tokens and Actions' GITHUB_TOKEN), ghr_ (refresh),
 * "[A-Za-z0-9_]" and "up to 255 characters"
 * (https://github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available);
 * fine-grained tokens `github_pat_` (https://github.blog/2022-10-18-introducing-fine-grained-personal-access-tokens-for-github/);
 * the older `v1.` + 40 hex installation tokens GitHub Enterprise Server still shows; JWTs
 * (a GitHub App's own token, Actions' OIDC and runtime tokens); Anthropic keys `sk-ant-`
 * (api03-, admin01-, oat01-); PEM private keys (the App's key).
 */
export interface TokenShape {
  name: string;
  /** Global: every match is replaced. */
  pattern: RegExp;
  /** Rebuilds a match with the secret part replaced; default: the whole match goes. */
  replace?: (redacted: string, match: string, ...groups: (string | undefined)[]) => string;
}

export const TOKEN_SHAPES: readonly TokenShape[] = [
  // Including the stateless installation format `ghs_<app id>_<JWT>` GitHub began minting
  // in 2026 (docs: generating-an-installation-access-token-for-a-github-app): dots, dashes.
  {
    name: "GitHub token",
    pattern: /\bgh[pousr]_[A-Za-z0-9_]{16,}(?:[.-][A-Za-z0-9_-]+)*/g,
  },
  { name: "GitHub fine-grained token", pattern: /\bgithub_pat_[A-Za-z0-9_]{20,244}\b/g },
  { name: "GitHub v1 token", pattern: /\bv1\.[0-9a-f]{40}\b/g },
  { name: "JWT", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g },
  { name: "Anthropic key", pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g },
  {
    name: "private key",
    // An unterminated block (a key cut short by an output cap) goes to the end of the text.
    pattern: /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z ]*PRIVATE KEY-----|$)/g,
  },
  {
    name: "Authorization header",
    pattern: /(authorization:\s*)(?:(basic|bearer|token)\s+)?([^\s'"]+)/gi,
    replace: (redacted, match, prefix, scheme, value) =>
      value === redacted
        ? match
        : `${prefix ?? ""}${scheme === undefined ? "" : `${scheme} `}${redacted}`,
  },
  {
    name: "credentials in a URL",
    pattern: /(\/\/)([^/@\s'"]+)@/g,
    replace: (redacted, match, slashes, credentials) =>
      credentials === redacted ? match : `${slashes ?? ""}${redacted}@`,
  },
];

/**
 * Loose: any value that merely starts like a token counts. For filtering a command's
 * environment, where a false positive drops one variable.
 */
const SECRET_VALUE = /gh[pousr]_[A-Za-z0-9]|github_pat_|sk-ant-|-----BEGIN/;

export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUE.test(value);
}
