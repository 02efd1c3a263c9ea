// The commands each role may run by default (docs/protocol.md#configuration: a role's
// definition says what it may use). Program names only: the sandbox matches argv[0] against them.
//
// The list is a convenience and an audit record, not the boundary:
// `find -exec`, `xargs`, `env`, `sh -c`, `npx`, `npm run`, `make` and every interpreter run
// any program they are given, so no list of names could keep a program from running. What
// holds is the sandbox around every command (docs/sandbox.md): an allowlisted read-only
// root, the workspace as the only writable folder, no secrets in the environment, limits,
// and the network the role is given. So the defaults are what a worker needs to build and
// test a repository of each ecosystem, shells and make for the project's own scripts
// included; a repository narrows them in .github/cfa.yml if it wants a tighter audit trail.

import type { Ecosystem } from "./ecosystems.js";
import type { Role } from "./roles.js";

/** Reading and searching the workspace. */
const READ = ["ls", "cat", "grep", "find", "head", "tail", "wc", "diff"] as const;

/** Changing files. */
const EDIT = ["sed", "mkdir", "cp", "mv", "rm", "touch"] as const;

/** The project's own scripts: Makefiles, shell scripts, package.json scripts' shells. */
const SCRIPTS = ["sh", "bash", "make"] as const;

/** Build, test and lint tools of each ecosystem, by the names their packages install. */
export const ECOSYSTEM_COMMANDS: Readonly<Record<Ecosystem, readonly string[]>> = {
  defaults: [],
  node: ["node", "npm", "npx", "yarn", "pnpm", "corepack"],
  python: ["python", "python3", "pip", "pip3", "pytest", "tox", "uv", "poetry", "ruff", "mypy"],
  go: ["go", "gofmt"],
  rust: ["cargo", "rustc", "rustfmt", "rustup"],
  java: ["java", "javac", "mvn", "gradle"],
  ruby: ["ruby", "gem", "bundle", "rake", "rspec"],
  dotnet: ["dotnet"],
  github: [],
  containers: [],
};

const ALL_TOOLS = [...new Set(Object.values(ECOSYSTEM_COMMANDS).flat())];

export const DEFAULT_COMMANDS: Readonly<Record<Role, readonly string[]>> = {
  // Leads write their artifact through file tools; git lets them read history and, for the
  // project lead, resolve merge conflicts of task branches (README, "How a job works": task
  // workspace).
  "intent-lead": ["git", ...READ],
  "project-lead": ["git", ...READ],
  worker: ["git", ...SCRIPTS, ...ALL_TOOLS, ...EDIT, ...READ],
  // Verifiers run the project's tests and linters; their verdicts rest on what ran.
  verifier: ["git", ...SCRIPTS, ...ALL_TOOLS, ...READ],
  // The proxy answers from the workspace clone and its memory file; it only reads.
  proxy: [...READ],
};

/**
 * A role's commands narrowed to the ecosystems a repository uses (detect-ecosystems.ts):
 * the same list for roles that run no build tool, the base plus those ecosystems' tools
 * for the worker and the verifier. For a wiring that wants the audit trail to read like
 * the repository.
 */
export function commandsForEcosystems(role: Role, ecosystems: readonly Ecosystem[]): string[] {
  const base = DEFAULT_COMMANDS[role].filter((name) => !ALL_TOOLS.includes(name));
  if (role !== "worker" && role !== "verifier") return base;
  const tools = ecosystems.flatMap((e) => ECOSYSTEM_COMMANDS[e]);
  const [git, ...rest] = base;
  return [...new Set([...(git === undefined ? [] : [git]), ...SCRIPTS, ...tools, ...rest])];
}
