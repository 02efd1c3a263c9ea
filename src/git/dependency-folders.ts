// Folders a workspace's setup fills (`npm ci`, a virtualenv…) that
// never belong in a commit, whatever the repository's .gitignore says or an agent makes it
// say: git's own ignore rules still apply on top. Matched at any depth, by name.
//
// Not here on purpose: `vendor/` (Go and PHP projects commit theirs), `target/` and `build/`
// (build output, which the repository's .gitignore names when it is not wanted).

export const DEPENDENCY_FOLDERS = [
  "node_modules",
  ".venv",
  "__pycache__",
  ".tox",
  ".nox",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".gradle",
  ".bundle",
] as const;

/** `git add` pathspecs that leave every dependency folder out, at any depth. */
export function dependencyExcludes(): string[] {
  // The folder itself too: one made a nested repository (a `.git` inside) is a gitlink entry
  // at its own path, which `name/**` would not match.
  return DEPENDENCY_FOLDERS.flatMap((name) => [
    `:(exclude,glob)**/${name}`,
    `:(exclude,glob)**/${name}/**`,
  ]);
}

const FOLDER_NAMES: ReadonlySet<string> = new Set(DEPENDENCY_FOLDERS);

/** Whether a root-relative path lies in (or is) a dependency folder, at any depth. */
export function inDependencyFolder(file: string): boolean {
  return file.split("/").some((segment) => FOLDER_NAMES.has(segment));
}

/** `git clean -e` patterns (gitignore syntax) that keep them in the work tree. */
export function dependencyCleanExcludes(): string[] {
  return DEPENDENCY_FOLDERS.flatMap((name) => ["-e", `${name}/`]);
}
