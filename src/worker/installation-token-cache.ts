// Where @octokit/auth-app keeps installation tokens between requests. Its own cache keeps a
// token 59 minutes by the wall clock; this one reads the token's `expires_at` against the
// worker's clock and gives it up `marginMs` early, so a token is never sent in its last
// minutes (GitHub: "Installation tokens expire 1 hour from the time you create them",
// https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-an-installation-access-token-for-a-github-app),
// and `forget()` drops every token when GitHub answers 401 to one before then.

import type { Clock } from "../ports/clock.js";

/** The cache interface auth-app calls (get/set of its "token|createdAt|expiresAt|…" string). */
export interface InstallationTokenCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Drops every token: the next request mints a new one. */
  forget(): void;
  /** Every token this cache has held, for the redactor: none may reach a log or comment. */
  tokens(): readonly string[];
}

export function installationTokenCache(
  clock: Clock,
  marginMs = 5 * 60_000,
): InstallationTokenCache {
  const entries = new Map<string, string>();
  const seen: string[] = [];
  return {
    async get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      // auth-app's format: token|createdAt|expiresAt|repositorySelection|permissions|file.
      const expiresAt = Date.parse(value.split("|")[2] ?? "");
      if (!Number.isFinite(expiresAt) || expiresAt - marginMs <= clock.now().getTime()) {
        entries.delete(key);
        return undefined;
      }
      return value;
    },
    async set(key, value) {
      // When the token was minted, by the worker's clock too: auth-app reads it back to tell
      // GitHub's replication lag (a 401 in a token's first seconds) from a refused token.
      const fields = value.split("|");
      fields[1] = clock.now().toISOString();
      entries.set(key, fields.join("|"));
      const token = fields[0];
      if (token !== undefined && token !== "" && !seen.includes(token)) seen.push(token);
    },
    forget() {
      entries.clear();
    },
    tokens: () => [...seen],
  };
}
