// The bot's commits carry the repository's configured identity, or a fixed one when the
// machine has none (a fresh Actions runner), so a merge never fails on "Please tell me who
// you are".

import type { GitClient } from "../../git/git-client.js";
import { gitOutput } from "../../git/git-at.js";

export const FALLBACK_NAME = "cfa-bot";
export const FALLBACK_EMAIL = "cfa-bot@users.noreply.github.com";

/** `key=value` config entries to add so commits have an identity (empty when configured). */
export async function identityConfig(git: GitClient): Promise<string[]> {
  const read = (key: string): Promise<string> =>
    gitOutput(git, ["config", "--get", key]).catch(() => "");
  const [name, email] = await Promise.all([read("user.name"), read("user.email")]);
  const config: string[] = [];
  if (name.trim() === "") config.push(`user.name=${FALLBACK_NAME}`);
  if (email.trim() === "") config.push(`user.email=${FALLBACK_EMAIL}`);
  return config;
}
