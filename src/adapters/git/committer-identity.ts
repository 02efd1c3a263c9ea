// The bot's commits carry the repository's configured identity, or a fixed one when the
// machine has none (a fresh Actions runner), so a merge never fails on "Please tell me who
// you are".

import type { GitClient } from "../../git/git-client.js";
import { gitOutput } from "../../git/git-at.js";
import { configPlace } from "../../git/driver-overrides.js";

export const FALLBACK_NAME = "cfa-bot";
export const FALLBACK_EMAIL = "cfa-bot@users.noreply.github.com";

/**
 * Entries by repository (or worktree) config, kept while its files are unchanged: the engine's
 * git reads no config but the repository's (git-client.ts), so a job's worktrees, which share
 * the common dir's config, ask git once (driver-overrides.ts says what the key and stamp cover).
 */
const known = new Map<string, { stamp: string; entries: Promise<string[]> }>();

/**
 * `key=value` config entries to add so commits have an identity (empty when configured).
 * `where`: the git dir (or the work tree) whose config `git` reads, to ask it once per config.
 */
export function identityConfig(git: GitClient, where?: string): Promise<string[]> {
  if (where === undefined) return listIdentity(git);
  const { key, stamp } = configPlace(where);
  const cached = known.get(key);
  if (cached?.stamp === stamp) return cached.entries;
  const entries = listIdentity(git);
  known.set(key, { stamp, entries });
  return entries;
}

async function listIdentity(git: GitClient): Promise<string[]> {
  // Both in one git process (each costs start-up time): `--null` prints `key\nvalue\0` for each
  // (https://git-scm.com/docs/git-config#Documentation/git-config.txt---null).
  const listed = await gitOutput(git, [
    "config",
    "--null",
    "--get-regexp",
    "^user\\.(name|email)$",
  ]).catch(() => "");
  const values = new Map<string, string>();
  for (const entry of listed.split("\0")) {
    const cut = entry.indexOf("\n");
    if (cut > 0) values.set(entry.slice(0, cut).trim(), entry.slice(cut + 1));
  }
  const name = values.get("user.name") ?? "";
  const email = values.get("user.email") ?? "";
  const config: string[] = [];
  if (name.trim() === "") config.push(`user.name=${FALLBACK_NAME}`);
  if (email.trim() === "") config.push(`user.email=${FALLBACK_EMAIL}`);
  return config;
}
