// Which ecosystems a repository uses, from the names of its files (setup's
// default network is the ecosystems detected). Pure: the caller lists the files (e.g. `git
// ls-files` on the default branch). A manifest anywhere in the tree counts, so a monorepo's
// packages/*/package.json or a docs/requirements.txt is found; vendored trees are skipped.

import type { Ecosystem } from "./ecosystems.js";
import { ECOSYSTEMS } from "./ecosystems.js";

const BY_NAME: Readonly<Record<string, Ecosystem>> = {
  "package.json": "node",
  "package-lock.json": "node",
  "npm-shrinkwrap.json": "node",
  "yarn.lock": "node",
  "pnpm-lock.yaml": "node",
  "pnpm-workspace.yaml": "node",
  ".npmrc": "node",
  ".nvmrc": "node",
  "pyproject.toml": "python",
  "setup.py": "python",
  "setup.cfg": "python",
  Pipfile: "python",
  "Pipfile.lock": "python",
  "poetry.lock": "python",
  "uv.lock": "python",
  "tox.ini": "python",
  "environment.yml": "python",
  "go.mod": "go",
  "go.sum": "go",
  "go.work": "go",
  "Cargo.toml": "rust",
  "Cargo.lock": "rust",
  "rust-toolchain": "rust",
  "rust-toolchain.toml": "rust",
  "pom.xml": "java",
  "build.gradle": "java",
  "build.gradle.kts": "java",
  "settings.gradle": "java",
  "settings.gradle.kts": "java",
  gradlew: "java",
  Gemfile: "ruby",
  "Gemfile.lock": "ruby",
  ".ruby-version": "ruby",
  "global.json": "dotnet",
  "nuget.config": "dotnet",
  "NuGet.Config": "dotnet",
  "Directory.Build.props": "dotnet",
  Dockerfile: "containers",
  "docker-compose.yml": "containers",
  "docker-compose.yaml": "containers",
  "compose.yml": "containers",
  "compose.yaml": "containers",
};

const BY_PATTERN: readonly { test: RegExp; ecosystem: Ecosystem }[] = [
  { test: /^requirements[\w.-]*\.(?:txt|in)$/, ecosystem: "python" },
  { test: /\.gemspec$/, ecosystem: "ruby" },
  { test: /\.(?:csproj|fsproj|vbproj|sln|slnx)$/, ecosystem: "dotnet" },
  { test: /\.Dockerfile$|^Dockerfile\./, ecosystem: "containers" },
];

/** Folders whose manifests are someone else's (installed or vendored), not the project's. */
const SKIPPED = new Set(["node_modules", "vendor", ".venv", "venv", "target", ".git"]);

/** The ecosystems found, in ECOSYSTEMS order; `defaults` is never detected. */
export function detectEcosystems(files: Iterable<string>): Ecosystem[] {
  const found = new Set<Ecosystem>();
  for (const file of files) {
    const parts = file.split("/");
    if (parts.slice(0, -1).some((part) => SKIPPED.has(part))) continue;
    const name = parts[parts.length - 1] ?? "";
    const ecosystem =
      (Object.prototype.hasOwnProperty.call(BY_NAME, name) ? BY_NAME[name] : undefined) ??
      BY_PATTERN.find((rule) => rule.test.test(name))?.ecosystem;
    if (ecosystem !== undefined) found.add(ecosystem);
  }
  // GitHub Actions workflows fetch actions from github.com, but a repository's own commands
  // do not need that; `github` is named in config when a build clones or downloads from it.
  return ECOSYSTEMS.filter((e) => found.has(e));
}
