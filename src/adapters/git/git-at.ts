// One simple-git client per directory. simple-git blocks abbreviated and unsafe options
// and strips ambient GIT_* variables, which is what we want for a bot's git calls.

import { simpleGit, type SimpleGit } from "simple-git";

/** `config` entries (`key=value`) are passed as `-c key=value` to every command. */
export function gitAt(baseDir: string, config: readonly string[] = []): SimpleGit {
  return simpleGit({ baseDir, config: [...config] });
}

/** Runs `git args…` and returns its stdout with the trailing newline removed. */
export async function gitOutput(git: SimpleGit, args: readonly string[]): Promise<string> {
  const output = await git.raw([...args]);
  return output.replace(/\n$/u, "");
}
