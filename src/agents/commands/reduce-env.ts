// The environment a command sees (docs/sandbox.md: the environment is rebuilt from an
// allowlist). Only an allowlist of names passes, and even an allowed name is dropped when
// its name or value looks like a secret, or its value contains the value of a variable
// whose name does: no GITHUB_TOKEN, ANTHROPIC_API_KEY, or anything built from them.

import { looksLikeSecretName, looksLikeSecretValue } from "../../secrets/index.js";

/** Passed through from the parent when present and clean. HOME is set, never passed. */
export const BASE_ENV_NAMES = ["PATH", "LANG", "LC_ALL", "TZ", "TERM", "CI"] as const;

export type EnvLike = Readonly<Record<string, string | undefined>>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Shorter values would match by accident (a SESSION_ID of "1" is in every PATH). */
const MIN_SECRET_LENGTH = 8;

/**
 * @param env the parent's environment (process.env or a copy)
 * @param allow the role's extra variable names, on top of BASE_ENV_NAMES
 * @param options.home the workspace root: HOME points there, so tools that write under
 *   ~ (npm's cache, git's global config) write inside the workspace
 */
export function reduceEnv(
  env: EnvLike,
  allow: readonly string[],
  options: { home: string },
): Record<string, string> {
  const secretValues = Object.entries(env)
    .filter(
      ([name, value]) => looksLikeSecretName(name) && (value?.length ?? 0) >= MIN_SECRET_LENGTH,
    )
    .map(([, value]) => value as string);
  const reduced: Record<string, string> = {};
  for (const name of new Set<string>([...BASE_ENV_NAMES, ...allow])) {
    if (name === "HOME" || !ENV_NAME.test(name)) continue;
    const value = env[name];
    if (value === undefined) continue;
    if (looksLikeSecretName(name) || looksLikeSecretValue(value)) continue;
    if (secretValues.some((secret) => value.includes(secret))) continue;
    reduced[name] = value;
  }
  reduced.HOME = options.home;
  return reduced;
}
