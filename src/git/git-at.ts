// One git client per directory, with `-c` config for every command. The client runs git
// directly (git-client.ts explains why not simple-git here).

import { gitClient, type GitClient } from "./git-client.js";

/** `config` entries (`key=value`) are passed as `-c key=value` to every command. */
export function gitAt(baseDir: string, config: readonly string[] = []): GitClient {
  return gitClient({ baseDir, config });
}

/** Runs `git args…` and returns its stdout with the trailing newline removed. */
export async function gitOutput(git: GitClient, args: readonly string[]): Promise<string> {
  const output = await git.raw([...args]);
  return output.replace(/\n$/u, "");
}
