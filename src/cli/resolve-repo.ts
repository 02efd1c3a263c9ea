// `--repo DIR` (default: the current folder) → the repository's top folder, checked.

import { resolve } from "node:path";
import { CliError } from "./cli-error.js";
import { gitTry } from "./git-text.js";

export async function resolveRepo(cwd: string, repo: string | undefined): Promise<string> {
  const dir = resolve(cwd, repo ?? ".");
  const top = (await gitTry(dir, ["rev-parse", "--show-toplevel"]))?.trim();
  if (!top) {
    // A bare repository (a remote's side) has a git dir and no working tree: it is a
    // repository, just not one a job can work in.
    if ((await gitTry(dir, ["rev-parse", "--is-bare-repository"]))?.trim() === "true") {
      throw new CliError(
        `${dir} is a bare repository, with no working tree for a job to work in: clone it (\`git clone ${shellWord(dir)} <folder>\`) and run cfa in the clone.`,
      );
    }
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
