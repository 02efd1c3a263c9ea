// `--repo DIR` (default: the current folder) → the repository's top folder, checked.

import { resolve } from "node:path";
import { CliError } from "./cli-error.js";
import { gitTry } from "./git-text.js";

export async function resolveRepo(cwd: string, repo: string | undefined): Promise<string> {
  const dir = resolve(cwd, repo ?? ".");
  const top = (await gitTry(dir, ["rev-parse", "--show-toplevel"]))?.trim();
  if (!top) {
    throw new CliError(
      `${dir} is not inside a git repository: run cfa in one, or pass --repo DIR.`,
    );
  }
  if ((await gitTry(top, ["rev-parse", "--verify", "--quiet", "HEAD"])) === null) {
    throw new CliError(
      `${top} has no commit yet: a job branches from one. Commit something first.`,
    );
  }
  return top;
}

/** ` --repo <dir>` for suggested commands, when the person is not in the repository. */
export function repoArg(repoDir: string, given: string | undefined): string {
  if (given === undefined) return "";
  return ` --repo ${shellWord(repoDir)}`;
}

/** A path as one word a shell reads back unchanged (quoted only when it has to be). */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@:+-]+$/.test(text) ? text : JSON.stringify(text);
}
