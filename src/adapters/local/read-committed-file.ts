// A file as a commit holds it, read from the object store: never the working tree, which the
// person's checkout (or an agent's command, in a worktree) decides. The local twin of the
// contents API the GitHub forge reads the default branch with
// (https://docs.github.com/en/rest/repos/contents#get-repository-content): a file's text,
// null when there is none, and a refusal — as there — for a folder, a link or a submodule
// ("type": "dir", "symlink", "submodule") or a file past the API's 1 MB.

import type { GitClient } from "../../git/git-client.js";
import { LocalForgeError } from "./local-forge-error.js";

/** The contents API's limit for a file's content ("between 1-100 MB: Only the raw … "). */
export const COMMITTED_FILE_MAX_BYTES = 1024 * 1024;

/** `ref`: a full ref or commit; `path`: relative to the repository's root, `/`-separated. */
export async function readCommittedFile(
  git: GitClient,
  ref: string,
  path: string,
): Promise<string | null> {
  if (path === "" || path.startsWith("/") || path.split("/").some((p) => p === ".." || p === "")) {
    throw new LocalForgeError(`cfa/local: ${JSON.stringify(path)} is not a path in a repository`);
  }
  // "<mode> <type> <object> <size>\t<path>" (git ls-tree --long, -z: no quoting).
  const listed = await git.run(["ls-tree", "-z", "--long", "--full-tree", ref, "--", path]);
  if (listed.code !== 0) {
    throw new LocalForgeError(
      `cfa/local: cannot read ${ref}: ${listed.stderr.trim() || `git exited ${listed.code}`}`,
    );
  }
  const entry = listed.stdout.toString("utf8").split("\0")[0] ?? "";
  const tab = entry.indexOf("\t");
  if (tab < 0 || entry.slice(tab + 1) !== path) return null;
  const [mode, type, object, size] = entry.slice(0, tab).split(/ +/u);
  if (type !== "blob" || (mode !== "100644" && mode !== "100755") || object === undefined) {
    throw new LocalForgeError(
      `cfa/local: ${path} on ${ref} is not a file (${mode === "120000" ? "a link" : type}); make it a file or remove it`,
    );
  }
  if (Number(size) > COMMITTED_FILE_MAX_BYTES) {
    throw new LocalForgeError(`cfa/local: ${path} on ${ref} is ${size} bytes; keep it under 1 MiB`);
  }
  return git.raw(["cat-file", "blob", object]);
}
